package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Binds Guard's meters ({@code guard.circuitbreaker.*}, {@code guard.ratelimit.*}) to a meter registry. As a
 * {@link MeterBinder} it is bound by Spring Boot once the registry is fully configured (common tags, filters),
 * and it follows breakers created after that through the registry's creation listener.
 */
public final class GuardMetrics implements MeterBinder {

    private final GuardRegistries registries;
    /** Registries already bound: binding one twice would count every call twice. */
    private final Set<MeterRegistry> bound = Collections.newSetFromMap(new IdentityHashMap<>());

    GuardMetrics(GuardRegistries registries) {
        this.registries = registries;
    }

    /**
     * For binding Guard's meters without the auto-configuration (or in a benchmark).
     *
     * @param breakers the breakers to meter, or {@code null}
     * @param limiters the limiters to meter, or {@code null}
     */
    public GuardMetrics(CircuitBreakerRegistry breakers, RateLimiterRegistry limiters) {
        this(new GuardRegistries(breakers, limiters));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        synchronized (bound) {
            if (!bound.add(registry)) {
                return;
            }
        }
        var breakers = registries.breakerRegistry();
        if (breakers != null) {
            // Called for the breakers that exist now and then once for each new one.
            breakers.addRegistryListener(breaker -> CircuitBreakerMeters.bind(breaker, registry));
        }
        var limiters = registries.limiterRegistry();
        if (limiters != null) {
            RateLimiterMeters meters = new RateLimiterMeters(registry);
            for (RateLimitPolicy policy : limiters.policies()) {
                meters.register(policy.name());
            }
            limiters.addObserver(meters);
        }
    }
}
