package io.guard.ratelimit;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A backend that decides requests for permits: the SPI behind {@code @RateLimit}. Implementations: Redis (one
 * atomic Lua script per decision, a quota shared by every instance) and in-process (same algorithms, same
 * {@link Decision} semantics), and the failover that puts a failure policy in front of Redis.
 *
 * <p>One primitive for decisions, {@link #decide}, asynchronous; the blocking form is derived from it, and waiting
 * for permits is done above the backend ({@link RateLimiterRegistry#acquire}, on the registry's one timer), so a
 * backend holds no thread and no timer of its own. Beside it, for operators rather than calls: {@link #inspect} (a
 * key's quota, spending nothing) and {@link #reset} (the quota given back). Permits are checked against the policy
 * once, by whoever enters the stack ({@link #tryAcquireAsync} or the registry), never again on the way down.
 *
 * <p>The policy travels with every call rather than being stored once, so a rate or interval changed in
 * configuration takes effect on the next call, with the permits already in use still accounted for.
 *
 * <p>{@code key} is the resolved key (for example a user id); the backend bounds and sanitizes it, so it may come
 * straight from user input.
 */
public interface RateLimiter extends AutoCloseable {

    /**
     * Takes {@code permits} permits for {@code key} if they are available now, else takes nothing. The caller has
     * checked {@code permits} with {@link RateLimitPolicy#checkPermits}. A backend failure completes the stage with a
     * {@link RateLimiterBackendException}, unless a failure policy answered: then the outcome carries the failure.
     */
    CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits);

    /**
     * The refusal this backend would answer for exactly this request without asking its store (a remembered
     * refusal), or {@code null} when only a round trip can decide. Lets a layer that watches the store's health
     * ({@link FailoverRateLimiter}) answer such requests without counting them as proof that the store is up.
     */
    default Decision remembered(RateLimitPolicy policy, String key, long permits) {
        return null;
    }

    /**
     * What is left of {@code key}'s quota now, without spending a permit or writing anything: the counts, their
     * expiry and any remembered refusal stay as they were. Asks the store itself (never a remembered refusal), so it
     * shows what the next request will find. A backend failure fails the stage with a
     * {@link RateLimiterBackendException}; no failure policy answers in the store's place, since an invented quota
     * would mislead the operator reading it.
     *
     * <p>The default fails with {@link UnsupportedOperationException}, so that a backend written before this method
     * existed still compiles and says what it lacks; Guard's backends all implement it.
     */
    default CompletionStage<Quota> inspect(RateLimitPolicy policy, String key) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("rate-limit backend "
                + backendName() + " (" + getClass().getName() + ") cannot inspect a quota"));
    }

    /**
     * Gives {@code key} its whole quota back (unblocks a user): forgets every permit in use under the policy's name,
     * whatever the algorithm, and every refusal remembered for it, on every instance that shares the store (see the
     * backend for how soon). A backend failure fails the stage with a {@link RateLimiterBackendException}.
     *
     * <p>The default fails with {@link UnsupportedOperationException}, as {@link #inspect} does.
     */
    default CompletionStage<Void> reset(RateLimitPolicy policy, String key) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("rate-limit backend "
                + backendName() + " (" + getClass().getName() + ") cannot reset a quota"));
    }

    /**
     * {@link #decide} for callers outside the stack: checks the permits, and fails the stage when the backend could
     * not decide and no failure policy answered.
     *
     * @throws IllegalArgumentException if {@code permits} is below 1 or above the policy's rate or burst
     */
    default CompletionStage<Decision> tryAcquireAsync(RateLimitPolicy policy, String key, long permits) {
        policy.checkPermits(permits);
        try {
            return decide(policy, key, permits).thenApply(BackendOutcome::decision);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The blocking form of {@link #tryAcquireAsync}.
     *
     * @throws IllegalArgumentException if {@code permits} is out of range
     * @throws RateLimiterBackendException if the backend cannot decide (and no failure policy answered)
     */
    default Decision tryAcquire(RateLimitPolicy policy, String key, long permits) {
        try {
            return tryAcquireAsync(policy, key, permits).toCompletableFuture().join();
        } catch (CompletionException e) {
            throw Failures.rethrowable(e);
        }
    }

    /** The backend's own view of its health, if it keeps one (the failover does); else the caller's view counts. */
    default Optional<BackendHealth> health() {
        return Optional.empty();
    }

    /** A short name for dashboards: {@code redis}, {@code local}. */
    String backendName();

    /** Releases what the backend holds (connections it opened, caches); never a Redis client it was given. */
    @Override
    void close();
}
