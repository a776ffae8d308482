package io.guard.ratelimit;

import io.guard.event.EventBuffer;
import io.guard.ratelimit.RateLimiterRegistry.Limit;

import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The limits of a {@link RateLimiterRegistry} by name. Registering a name again replaces its policy in place and keeps
 * its counters and events, so a caller that holds the {@link Limit} decides by the new policy from then on.
 */
final class RegisteredLimits {

    private final Map<String, Limit> byName = new ConcurrentHashMap<>();
    private final int eventBufferSize;

    /** @param eventBufferSize recent events kept per limit; at least 1 */
    RegisteredLimits(int eventBufferSize) {
        if (eventBufferSize < 1) {
            throw new IllegalArgumentException("event buffer size must be at least 1 but was " + eventBufferSize);
        }
        this.eventBufferSize = eventBufferSize;
    }

    void register(RateLimitPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        byName.compute(policy.name(), (name, existing) -> existing == null
                ? new Limit(policy, new EventBuffer(eventBufferSize)) : existing.withPolicy(policy));
    }

    /** The limit registered under {@code name}, or {@code null}. */
    Limit get(String name) {
        return name == null ? null : byName.get(name);
    }

    /** @throws IllegalArgumentException naming the registered limits if none is registered under {@code name} */
    Limit require(String name) {
        Limit limit = get(name);
        if (limit == null) {
            throw new IllegalArgumentException("no rate limiter named '" + name + "'; registered: "
                    + byName.keySet().stream().sorted().toList());
        }
        return limit;
    }

    /** The registered policies (a snapshot). */
    Collection<RateLimitPolicy> policies() {
        return byName.values().stream().map(Limit::policy).toList();
    }
}
