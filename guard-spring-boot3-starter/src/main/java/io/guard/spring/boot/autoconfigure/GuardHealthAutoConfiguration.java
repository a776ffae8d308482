package io.guard.spring.boot.autoconfigure;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.actuate.GuardHealthReports;
import io.guard.spring.autoconfigure.GuardProperties;
import io.guard.spring.boot.health.GuardHealthContributor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.context.annotation.Bean;

/**
 * The {@code guard} health contributor on Spring Boot 3.5; off with
 * {@code management.health.guard.enabled=false}.
 */
@AutoConfiguration(after = HealthContributorAutoConfiguration.class,
        afterName = "io.guard.spring.autoconfigure.GuardAutoConfiguration")
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
        return new GuardHealthContributor(GuardHealthReports.of(breakers.getIfAvailable(),
                limiters.getIfAvailable(), guard.getCircuitBreaker()::healthFailsWhenOpen));
    }
}
