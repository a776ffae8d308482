package io.guard.ratelimit;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * A backend that decides requests for permits: the SPI behind {@code @RateLimit}. Implementations: Redis (one
 * atomic Lua script per decision, a quota shared by every instance) and in-process (same algorithms, same
 * {@link Decision} semantics).
 *
 * <p>The policy travels with every call rather than being stored once, so a rate or interval changed in
 * configuration takes effect on the next call, with the permits already in use still accounted for.
 *
 * <p>{@code key} is the resolved key (for example a user id); the backend bounds and sanitizes it, so it may come
 * straight from user input.
 */
public interface RateLimiter extends AutoCloseable {

    /**
     * Takes {@code permits} permits for {@code key} if they are available now, else takes nothing.
     *
     * @throws IllegalArgumentException if {@code permits} is below 1 or above the policy's rate or burst
     * @throws RateLimiterBackendException if the backend cannot decide (before any failure policy applies)
     */
    Decision tryAcquire(RateLimitPolicy policy, String key, long permits);

    /** The non-blocking form of {@link #tryAcquire}; backend failures complete the stage exceptionally. */
    CompletionStage<Decision> tryAcquireAsync(RateLimitPolicy policy, String key, long permits);

    /**
     * The refusal this backend would answer for exactly this request without asking its store (a remembered
     * refusal), or {@code null} when only a round trip can decide. Lets a layer that watches the store's health
     * ({@link FailoverRateLimiter}) answer such requests without counting them as proof that the store is up.
     */
    default Decision remembered(RateLimitPolicy policy, String key, long permits) {
        return null;
    }

    /**
     * Waits up to {@code maxWait} for the permits: re-tries after each refusal's exact {@code retryAfter} on a
     * timer, holding neither a thread nor a connection while it waits. Completes with the last refusal when the
     * permits cannot be had within {@code maxWait}.
     */
    CompletionStage<Decision> acquire(RateLimitPolicy policy, String key, long permits, Duration maxWait);

    /** A short name for dashboards: {@code redis}, {@code local}. */
    String backendName();

    /** Releases what the backend holds (timers, script caches); never the Redis client it was given. */
    @Override
    void close();
}
