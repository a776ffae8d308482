package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.bulkhead.Bulkhead;
import io.guard.bulkhead.BulkheadRegistry;
import io.guard.event.GuardEvent;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The one place where the actuator code reads Guard's registries, so that endpoints, health and the event stream
 * agree on what exists. Either registry may be absent (an application that only limits, or only breaks).
 * Never creates a breaker or a limiter: a name typed into an actuator URL must not grow the registry.
 */
final class GuardRegistries {

    private final CircuitBreakerRegistry breakers;
    private final RateLimiterRegistry limiters;
    private final BulkheadRegistry bulkheads;

    GuardRegistries(CircuitBreakerRegistry breakers, RateLimiterRegistry limiters) {
        this(breakers, limiters, null);
    }

    /** @param bulkheads the bulkheads of {@code @CircuitBreaker(maxConcurrentCalls)}; may be null */
    GuardRegistries(CircuitBreakerRegistry breakers, RateLimiterRegistry limiters, BulkheadRegistry bulkheads) {
        this.breakers = breakers;
        this.limiters = limiters;
        this.bulkheads = bulkheads;
    }

    BulkheadRegistry bulkheadRegistry() {
        return bulkheads;
    }

    List<Bulkhead> bulkheads() {
        if (bulkheads == null) {
            return List.of();
        }
        List<Bulkhead> all = new ArrayList<>(bulkheads.all());
        all.sort(Comparator.comparing(Bulkhead::name));
        return all;
    }

    Optional<Bulkhead> bulkhead(String name) {
        return bulkheads == null ? Optional.empty() : bulkheads.find(name);
    }

    CircuitBreakerRegistry breakerRegistry() {
        return breakers;
    }

    RateLimiterRegistry limiterRegistry() {
        return limiters;
    }

    List<CircuitBreaker> breakers() {
        if (breakers == null) {
            return List.of();
        }
        List<CircuitBreaker> all = new ArrayList<>(breakers.all());
        all.sort(Comparator.comparing(CircuitBreaker::name));
        return all;
    }

    Optional<CircuitBreaker> breaker(String name) {
        return breakers == null ? Optional.empty() : breakers.find(name);
    }

    List<RateLimitPolicy> policies() {
        if (limiters == null) {
            return List.of();
        }
        List<RateLimitPolicy> all = new ArrayList<>(limiters.policies());
        all.sort(Comparator.comparing(RateLimitPolicy::name));
        return all;
    }

    Optional<RateLimitPolicy> policy(String name) {
        return limiters == null ? Optional.empty() : limiters.find(name);
    }

    RateLimiterDescriptor describe(RateLimitPolicy policy) {
        var stats = limiters.stats(policy.name());
        return RateLimiterDescriptor.of(policy, backendStatus(),
                new RateLimiterDescriptor.Stats(stats.permitted(), stats.rejected(), stats.errors()));
    }

    /** The rate-limit backend's status, or empty when the application has no rate limiter registry. */
    Optional<BackendStatus> backend() {
        return limiters == null ? Optional.empty() : Optional.of(backendStatus());
    }

    private BackendStatus backendStatus() {
        var health = limiters.backendHealth();
        return new BackendStatus(health.backend(), health.up(), health.breakerState(), health.lastError(),
                health.lastErrorTime() == null ? null : health.lastErrorTime().toString(),
                health.downSince() == null ? null : health.downSince().toString(), health.reason());
    }

    /** Every buffered event of every breaker, limiter and bulkhead, newest first. */
    List<GuardEvent> recentEvents() {
        List<GuardEvent> events = new ArrayList<>();
        for (CircuitBreaker breaker : breakers()) {
            events.addAll(breaker.recentEvents());
        }
        for (RateLimitPolicy policy : policies()) {
            events.addAll(limiters.recentEvents(policy.name()));
        }
        for (Bulkhead bulkhead : bulkheads()) {
            events.addAll(bulkhead.recentEvents());
        }
        events.sort(Comparator.comparing(GuardEvent::time).reversed());
        return events;
    }
}
