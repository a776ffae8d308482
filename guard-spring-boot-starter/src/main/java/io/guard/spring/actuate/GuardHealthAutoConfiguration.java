package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.autoconfigure.GuardProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * The {@code guard} health contributor; off with {@code management.health.guard.enabled=false}.
 */
@AutoConfiguration(after = HealthContributorAutoConfiguration.class,
        afterName = GuardEndpointAutoConfiguration.GUARD_AUTO_CONFIGURATION)
@ConditionalOnClass(HealthContributor.class)
@ConditionalOnProperty(prefix = "guard", name = "enabled", matchIfMissing = true)
@ConditionalOnEnabledHealthIndicator("guard")
public class GuardHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "guardHealthContributor")
    HealthContributor guardHealthContributor(ObjectProvider<CircuitBreakerRegistry> breakers,
                                             ObjectProvider<RateLimiterRegistry> limiters,
                                             ObjectProvider<GuardProperties> properties) {
        GuardProperties guard = properties.getIfAvailable(GuardProperties::new);
        // guard.circuit-breaker.instances.<name>.health-fails-when-open, else the defaults' value, else false.
        return new GuardHealthContributor(GuardEndpointAutoConfiguration.registries(breakers, limiters),
                guard.getCircuitBreaker()::healthFailsWhenOpen);
    }
}
