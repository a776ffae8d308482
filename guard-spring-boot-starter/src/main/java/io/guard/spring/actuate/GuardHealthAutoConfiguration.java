package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.RateLimiterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import java.util.Map;
import java.util.function.Predicate;

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
                                             ObjectProvider<RateLimiterRegistry> limiters, Environment environment) {
        return new GuardHealthContributor(GuardEndpointAutoConfiguration.registries(breakers, limiters),
                failsWhenOpen(Binder.get(environment)));
    }

    /**
     * {@code guard.circuit-breaker.instances.<name>.health-fails-when-open}, else the defaults' value, else false.
     * Read once: the map is bound as a whole, so any breaker name works as a key.
     */
    static Predicate<String> failsWhenOpen(Binder binder) {
        boolean byDefault = binder.bind("guard.circuit-breaker.defaults", HealthFlag.class)
                .map(HealthFlag::failsWhenOpen).orElse(false);
        Map<String, HealthFlag> instances = binder.bind("guard.circuit-breaker.instances",
                Bindable.mapOf(String.class, HealthFlag.class)).orElse(Map.of());
        return name -> {
            HealthFlag flag = instances.get(name);
            return flag == null || flag.healthFailsWhenOpen() == null ? byDefault : flag.healthFailsWhenOpen();
        };
    }

    /** The one breaker property health reads; the others are bound by the starter's properties. */
    record HealthFlag(Boolean healthFailsWhenOpen) {
        boolean failsWhenOpen() {
            return Boolean.TRUE.equals(healthFailsWhenOpen);
        }
    }
}
