package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.bulkhead.BulkheadRegistry;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.breaker.FleetBreakers;
import io.guard.spring.ratelimit.GuardLeases;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.ratelimit.RateLimitQuotas;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The {@code guard}, {@code guardevents} and {@code guarddashboard} actuator endpoints and the live event stream. Each is created only
 * when available (enabled and exposed), so an application that exposes nothing pays nothing.
 */
@AutoConfiguration(after = { EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class },
        afterName = GuardEndpointAutoConfiguration.GUARD_AUTO_CONFIGURATION)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnProperty(prefix = "guard", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(GuardEventStreamProperties.class)
public class GuardEndpointAutoConfiguration {

    /** The starter's main auto-configuration, which creates the registries read here. */
    static final String GUARD_AUTO_CONFIGURATION = "io.guard.spring.autoconfigure.GuardAutoConfiguration";

    static GuardRegistries registries(ObjectProvider<CircuitBreakerRegistry> breakers,
                                      ObjectProvider<RateLimiterRegistry> limiters) {
        return new GuardRegistries(breakers.getIfAvailable(), limiters.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    GuardEndpoint guardEndpoint(ObjectProvider<CircuitBreakerRegistry> breakers,
                                ObjectProvider<RateLimiterRegistry> limiters,
                                ObjectProvider<BulkheadRegistry> bulkheads, ObjectProvider<LiveLimits> live,
                                ObjectProvider<GuardLeases> leases, ObjectProvider<FleetBreakers> fleet) {
        return new GuardEndpoint(new GuardRegistries(breakers.getIfAvailable(), limiters.getIfAvailable(),
                bulkheads.getIfAvailable()), live.getIfAvailable(), leases.getIfAvailable(), fleet.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(GuardEndpoint.class)
    @ConditionalOnAvailableEndpoint(endpoint = GuardEndpoint.class, exposure = EndpointExposure.WEB)
    GuardEndpointWebExtension guardEndpointWebExtension(GuardEndpoint endpoint, Environment environment,
                                                        ObjectProvider<RateLimitQuotas> quotas) {
        return new GuardEndpointWebExtension(endpoint, WriteAccess.of(environment),
                new QuotaOperations(quotas.getIfAvailable()));
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    GuardEventsEndpoint guardEventsEndpoint(ObjectProvider<CircuitBreakerRegistry> breakers,
                                            ObjectProvider<RateLimiterRegistry> limiters,
                                            ObjectProvider<BulkheadRegistry> bulkheads) {
        return new GuardEventsEndpoint(new GuardRegistries(breakers.getIfAvailable(), limiters.getIfAvailable(),
                bulkheads.getIfAvailable()));
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(GuardEventsEndpoint.class)
    @ConditionalOnAvailableEndpoint(endpoint = GuardEventsEndpoint.class, exposure = EndpointExposure.WEB)
    GuardEventsEndpointWebExtension guardEventsEndpointWebExtension(GuardEventsEndpoint endpoint) {
        return new GuardEventsEndpointWebExtension(endpoint);
    }

    /** The live page; it reads {@code guard} and {@code guardevents/stream}, which must be exposed as well. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
    GuardDashboardEndpoint guardDashboardEndpoint() {
        return new GuardDashboardEndpoint();
    }

    /**
     * The live stream exists only when {@code guardevents} is exposed over HTTP: it shows the same events. Its HTTP
     * side is in {@link GuardEventStreamManagementContextConfiguration}, so that it is served where the actuator
     * endpoints are (the management port, when one is set).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnAvailableEndpoint(endpoint = GuardEventsEndpoint.class, exposure = EndpointExposure.WEB)
    @ConditionalOnProperty(prefix = "management.endpoint.guardevents.stream", name = "enabled", matchIfMissing = true)
    @ConditionalOnWebApplication
    static class EventStreamConfiguration {

        @Bean
        @ConditionalOnMissingBean
        GuardEventStream guardEventStream(ObjectProvider<CircuitBreakerRegistry> breakers,
                                          ObjectProvider<RateLimiterRegistry> limiters,
                                          GuardEventStreamProperties properties) {
            return new GuardEventStream(registries(breakers, limiters), properties.getQueueSize(),
                    properties.getMaxSubscribers());
        }
    }
}
