package io.guard.ratelimit;

/**
 * Sees every request a {@link RateLimiterRegistry} decides, for metrics ({@code guard.ratelimit.requests},
 * {@code guard.ratelimit.backend.latency}). Exactly one method is called per request. Called on the deciding
 * thread (often a Redis client thread): implementations must be fast and must not throw.
 */
public interface RateLimitObserver {

    /** The backend decided. */
    void onDecision(RateLimitPolicy policy, Decision decision, long latencyNanos);

    /**
     * The backend could not decide; the policy's {@link BackendFailurePolicy} answered (an allowed decision, a
     * local decision, or an exception to the caller).
     */
    void onBackendError(RateLimitPolicy policy, Throwable error, long latencyNanos);

    /**
     * A cost known after the call was charged ({@link RateLimiterRegistry#charge}): {@code permits} more (fewer when
     * negative) than the call took when admitted; {@code quota} is what is left after it, or null when the charge
     * failed with {@code error}. Not one of the per-request calls above: a charge follows an admission. Ignored by
     * default.
     */
    default void onCharge(RateLimitPolicy policy, long permits, Quota quota, Throwable error) {
    }
}
