package io.guard.spring.autoconfigure;

import io.guard.spring.observation.CircuitBreakerObservationConvention;
import io.guard.spring.ratelimit.GuardLeases;
import io.guard.spring.observation.GuardObservations;
import io.guard.spring.observation.RateLimitObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.function.Predicate;

/**
 * Observations of decisions and breaker calls, on the application's {@link ObservationRegistry}: on when such a
 * bean exists (Spring Boot's actuator makes one), off with {@code guard.observations.enabled=false}; an allowed
 * decision of limits that all lease is observed only with {@code guard.observations.allowed-leased-decisions=true}
 * (see {@link io.guard.spring.observation.DecisionObservation}). The aspects
 * ask for {@link GuardObservations} on their first call, so the registry may be defined by any configuration.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "io.micrometer.observation.ObservationRegistry")
@ConditionalOnProperty(prefix = "guard.observations", name = "enabled", havingValue = "true", matchIfMissing = true)
class GuardObservationConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ObservationRegistry.class)
    GuardObservations guardObservations(ObservationRegistry registry,
                                        ObjectProvider<RateLimitObservationConvention> rateLimitConvention,
                                        ObjectProvider<CircuitBreakerObservationConvention> breakerConvention,
                                        GuardProperties properties, ObjectProvider<GuardLeases> leases) {
        GuardLeases leasing = leases.getIfAvailable();
        Predicate<String> leased = properties.getObservations().isAllowedLeasedDecisions() || leasing == null
                ? null : leasing::leases;
        return new GuardObservations(registry, rateLimitConvention.getIfUnique(), breakerConvention.getIfUnique(),
                leased);
    }
}
