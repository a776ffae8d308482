package io.guard.breaker;

import java.util.Objects;

/**
 * Resilience4j's handle-less permission API over a Guard breaker, for code migrating from Resilience4j that asks
 * for a permission, times the call itself and reports the outcome with its duration
 * ({@code tryAcquirePermission()}, then {@code onSuccess(duration)} or {@code onError(duration, error)}). New code
 * uses {@link CircuitBreaker#tryAcquire()} instead: a permission here carries no handle, so a permission given back
 * goes to the state in force rather than to the one that granted it, and calls made this way are not watched for
 * hangs. See docs/migrating.md.
 *
 * <p>Durations are in nanoseconds measured with {@link CircuitBreaker#currentTimeNanos()}, so that tests which
 * move the breaker's clock by hand also move the measured call durations.
 */
public final class CircuitBreakerPermissions {

    private final DecoratingCircuitBreaker breaker;

    private CircuitBreakerPermissions(DecoratingCircuitBreaker breaker) {
        this.breaker = breaker;
    }

    /**
     * The permission API of {@code breaker}, one made by {@link CircuitBreaker#of} or a
     * {@link CircuitBreakerRegistry}; holds no state of its own, so making one per call costs an allocation only.
     *
     * @throws IllegalArgumentException for another implementation of {@link CircuitBreaker}
     */
    public static CircuitBreakerPermissions of(CircuitBreaker breaker) {
        Objects.requireNonNull(breaker, "breaker");
        if (breaker instanceof DecoratingCircuitBreaker own) {
            return new CircuitBreakerPermissions(own);
        }
        throw new IllegalArgumentException("circuit breaker '" + breaker.name() + "' is a "
                + breaker.getClass().getName() + ", not one made by CircuitBreaker.of or a CircuitBreakerRegistry:"
                + " only Guard's own breakers have the permission API; use tryAcquire() and its Permit instead");
    }

    /**
     * Asks to make one call. Returns false when the state refuses it (OPEN, FORCED_OPEN, HALF_OPEN with every
     * trial permit taken); a refusal is counted and published as a not-permitted event.
     */
    public boolean tryAcquirePermission() {
        return breaker.tryGrant(breaker.currentTimeNanos()) != null;
    }

    /** Like {@link #tryAcquirePermission()}, but throws {@link CallNotPermittedException} on refusal. */
    public void acquirePermission() {
        breaker.grant(breaker.currentTimeNanos());
    }

    /**
     * Gives back a permission without recording an outcome (the call was never made, or was cancelled). The
     * permission goes to the current state; call it only for a permission acquired in that state (a permit from
     * {@link CircuitBreaker#tryAcquire()} tracks this for you: a call admitted while CLOSED never hands a later
     * HALF_OPEN an extra trial permit).
     */
    public void releasePermission() {
        breaker.release(breaker.currentState());
    }

    /** Records a successful call that took {@code durationNanos}. */
    public void onSuccess(long durationNanos) {
        breaker.onSuccess(durationNanos);
    }

    /**
     * Records a call that failed with {@code error}. The error is classified by the configuration: recorded as a
     * failure, or ignored (then the permission is released to the current state and nothing is recorded).
     */
    public void onError(long durationNanos, Throwable error) {
        breaker.onError(breaker.currentState(), durationNanos, error);
    }

    /** Records a call that returned {@code result}; the result predicate decides whether it counts as a failure. */
    public void onResult(long durationNanos, Object result) {
        breaker.onResult(durationNanos, result);
    }

    /**
     * Whether the breaker's configuration records {@code error} as a failure (rather than ignoring it or counting
     * it as a success), by the same rules {@link #onError} applies. Callers use it to decide whether a fallback may
     * answer for the error; it records nothing.
     */
    public boolean recordsAsFailure(Throwable error) {
        return breaker.recordsAsFailure(error);
    }

    @Override
    public String toString() {
        return "CircuitBreakerPermissions[" + breaker.name() + "]";
    }
}
