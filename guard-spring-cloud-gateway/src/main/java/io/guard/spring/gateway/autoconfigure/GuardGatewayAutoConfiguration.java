package io.guard.spring.gateway.autoconfigure;

import io.guard.spring.observation.GuardObservations;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.autoconfigure.GuardProperties;
import io.guard.spring.gateway.CostHeaderStrip;
import io.guard.spring.gateway.GatewayCostFilter;
import io.guard.spring.gateway.GatewayLimits;
import io.guard.spring.gateway.GatewayRoutesCheckedAtStartup;
import io.guard.spring.gateway.GuardGatewayRateLimiter;
import io.guard.spring.ratelimit.CostCharges;
import io.guard.spring.ratelimit.LiveLimits;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.filter.factory.RequestRateLimiterGatewayFilterFactory;
import org.springframework.cloud.gateway.filter.ratelimit.RateLimiter;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.support.ConfigurationService;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * Guard as Spring Cloud Gateway's rate limiter, when the gateway (server-webflux) is on the class path and Guard's
 * limiter registry exists. Before the gateway's own auto-configuration, so that its {@code RequestRateLimiter} filter
 * finds a {@code RateLimiter} bean; primary, so that it is the filter's default even next to SCG's
 * {@code RedisRateLimiter} (which a route can still name: {@code rate-limiter: "#{@redisRateLimiter}"}).
 */
@AutoConfiguration(after = GuardAutoConfiguration.class,
        beforeName = "org.springframework.cloud.gateway.config.GatewayAutoConfiguration")
@ConditionalOnClass({RateLimiter.class, GatewayProperties.class})
@ConditionalOnBean({RateLimiterRegistry.class, LiveLimits.class})
public class GuardGatewayAutoConfiguration {

    /** What routes name in {@code rate-limiter: "#{@guardGatewayRateLimiter}"}. */
    public static final String RATE_LIMITER_BEAN = "guardGatewayRateLimiter";

    @Bean
    @ConditionalOnMissingBean
    GatewayLimits guardGatewayLimits(GuardProperties properties, RateLimiterRegistry registry, LiveLimits live,
                                     ObjectProvider<GuardObservations> observations) {
        var limits = properties.getRateLimit();
        return new GatewayLimits(limits::instanceSettings, limits.defaultSettings(), registry, live,
                observations::getIfAvailable);
    }

    @Bean(RATE_LIMITER_BEAN)
    @Primary
    @ConditionalOnMissingBean(GuardGatewayRateLimiter.class)
    GuardGatewayRateLimiter guardGatewayRateLimiter(GatewayLimits limits,
                                                    ObjectProvider<ConfigurationService> configuration) {
        return new GuardGatewayRateLimiter(limits, configuration.getIfAvailable());
    }

    /** Charges the costs routes read from the upstream's answer ({@code guard.cost-header}). */
    @Bean
    @ConditionalOnMissingBean
    GatewayCostFilter guardGatewayCostFilter(RateLimiterRegistry registry) {
        return new GatewayCostFilter(new CostCharges(registry));
    }

    /** Takes the cost header out of the answer on routes with {@code guard.strip-cost-header: true}. */
    @Bean
    @ConditionalOnMissingBean
    CostHeaderStrip guardCostHeaderStrip() {
        return new CostHeaderStrip();
    }

    /** The routes in application.yml that Guard limits, checked once every bean exists. */
    @Bean
    GatewayRoutesCheckedAtStartup guardGatewayRoutesCheck(GatewayLimits limits, GuardGatewayRateLimiter limiter,
                                                           ObjectProvider<GatewayProperties> gateway,
                                                           ObjectProvider<RequestRateLimiterGatewayFilterFactory> filters,
                                                           ObjectProvider<RouteLocator> locators,
                                                           ObjectProvider<RateLimiter<?>> rateLimiters,
                                                           GuardProperties properties) {
        return new GatewayRoutesCheckedAtStartup(limits, limiter, RATE_LIMITER_BEAN, gateway, filters, locators,
                rateLimiters, name -> properties.getRateLimit().getInstances().containsKey(name));
    }
}
