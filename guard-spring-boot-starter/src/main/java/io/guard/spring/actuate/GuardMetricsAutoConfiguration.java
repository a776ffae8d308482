package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.RateLimiterRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Guard's Micrometer meters, when the application has a {@link MeterRegistry}. The binder is bound by Spring Boot
 * after the registry is configured, never earlier.
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class },
        afterName = GuardEndpointAutoConfiguration.GUARD_AUTO_CONFIGURATION)
@ConditionalOnClass({ MeterRegistry.class, MetricsAutoConfiguration.class })
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnProperty(prefix = "guard", name = "enabled", matchIfMissing = true)
public class GuardMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    GuardMetrics guardMetrics(ObjectProvider<CircuitBreakerRegistry> breakers,
                              ObjectProvider<RateLimiterRegistry> limiters) {
        return new GuardMetrics(GuardEndpointAutoConfiguration.registries(breakers, limiters));
    }
}
