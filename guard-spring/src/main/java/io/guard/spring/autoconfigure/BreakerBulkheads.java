package io.guard.spring.autoconfigure;

import io.guard.bulkhead.Bulkhead;
import io.guard.bulkhead.BulkheadRegistry;
import io.guard.spring.bulkhead.AdaptiveLimitProperties;
import io.guard.spring.bulkhead.AdaptiveLimits;

/**
 * The bulkhead of a {@code @CircuitBreaker}'s name: its instance's {@code max-concurrent-calls}, else the defaults',
 * else the annotation's {@code maxConcurrentCalls}; {@code adaptive} makes one whose limit moves, with the instance's
 * {@code adaptive-limit} settings over the defaults', setting by setting. Bad values stopped start-up before (the start-up report).
 */
final class BreakerBulkheads {

    private final CircuitBreakerProperties properties;
    private final BulkheadRegistry registry;

    BreakerBulkheads(CircuitBreakerProperties properties, BulkheadRegistry registry) {
        this.properties = properties;
        this.registry = registry;
    }

    /** The bulkhead of breaker {@code name}, or null when it has none. */
    Bulkhead bulkhead(String name, int annotated) {
        BreakerProperties instance = properties.getInstances().get(name);
        BreakerProperties defaults = properties.getDefaults();
        String configured = instance != null && instance.getMaxConcurrentCalls() != null
                ? instance.getMaxConcurrentCalls() : defaults.getMaxConcurrentCalls();
        if (AdaptiveLimits.isAdaptive(configured)) {
            AdaptiveLimitProperties settings = AdaptiveLimits.inherit(
                    instance != null ? instance.getAdaptiveLimit() : null, defaults.getAdaptiveLimit());
            return registry.bulkhead(name, () -> AdaptiveLimits.create(settings), AdaptiveLimits.retryAfter(settings));
        }
        int max = configured != null ? Integer.parseInt(configured.trim()) : annotated;
        return max > 0 ? registry.bulkhead(name, max) : null;
    }
}
