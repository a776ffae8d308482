package io.guard.spring.boot.autoconfigure;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.bulkhead.BulkheadRegistry;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.actuate.GuardMetrics;
import io.guard.spring.actuate.LeaseMeters;
import io.guard.spring.ratelimit.GuardLeases;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Guard's Micrometer meters on Spring Boot 3.5, when the application has a {@link MeterRegistry}. Ordered after Boot
 * 3's metrics auto-configuration (in {@code spring-boot-actuator-autoconfigure}), so the binder is bound once the registry
 * is configured, never earlier.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "io.guard.spring.autoconfigure.GuardAutoConfiguration" })
@ConditionalOnClass(name = { "io.micrometer.core.instrument.MeterRegistry",
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration" })
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnProperty(prefix = "guard", name = "enabled", matchIfMissing = true)
public class GuardMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    GuardMetrics guardMetrics(ObjectProvider<CircuitBreakerRegistry> breakers,
                              ObjectProvider<RateLimiterRegistry> limiters,
                              ObjectProvider<BulkheadRegistry> bulkheads) {
        return new GuardMetrics(breakers.getIfAvailable(), limiters.getIfAvailable(), bulkheads.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    LeaseMeters guardLeaseMeters(ObjectProvider<GuardLeases> leases) {
        return new LeaseMeters(leases.getIfAvailable(GuardLeases::new));
    }
}
