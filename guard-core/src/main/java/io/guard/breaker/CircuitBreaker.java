package io.guard.breaker;

import io.guard.breaker.window.Snapshot;
import io.guard.event.GuardEvent;
import io.guard.event.GuardEventListener;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Watches the calls to one downstream and refuses them while the downstream is sick, so that callers fail fast
 * instead of piling up behind timeouts.
 *
 * <p>Two ways to use it. The <em>permission API</em> ({@link #tryAcquirePermission()}, then exactly one of
 * {@link #onSuccess}, {@link #onError}, {@link #onResult} or {@link #releasePermission()}) is what the Spring
 * aspects use; every acquired permission must be answered by exactly one of those calls, or a HALF_OPEN breaker
 * would wait for a trial call that never reports. The <em>decorators</em> ({@link #executeSupplier} and
 * friends) do that bookkeeping for you.
 *
 * <p>Durations passed to the permission API are in nanoseconds measured with {@link #currentTimeNanos()}, so
 * that tests which move the breaker's clock by hand also move the measured call durations.
 */
public interface CircuitBreaker {

    /** The name this breaker is registered under. */
    String name();

    /** The configuration in force. */
    CircuitBreakerConfig config();

    /** The current state. */
    State state();

    /** A consistent snapshot of the sliding window: counts and rates (rates are -1 below minimum calls). */
    Snapshot snapshot();

    /** Calls refused since the breaker was created (or last reset). */
    long notPermittedCalls();

    /** How long until an OPEN breaker may admit a trial call; {@link Duration#ZERO} in every other state. */
    Duration remainingOpenTime();

    /**
     * Asks to make one call. Returns false when the state refuses it (OPEN, FORCED_OPEN, HALF_OPEN with every
     * trial permit taken); a refusal is counted and published as a not-permitted event.
     */
    boolean tryAcquirePermission();

    /** Like {@link #tryAcquirePermission()}, but throws {@link CallNotPermittedException} on refusal. */
    void acquirePermission();

    /**
     * Gives back a permission without recording an outcome (the call was never made, or was cancelled). The
     * permission goes to the current state; call it only for a permission acquired in that state (the decorators
     * track this for you: a call admitted while CLOSED never hands a later HALF_OPEN an extra trial permit).
     */
    void releasePermission();

    /** Records a successful call that took {@code durationNanos}. */
    void onSuccess(long durationNanos);

    /**
     * Records a call that failed with {@code error}. The error is classified by the configuration: recorded as a
     * failure, or ignored (then the permission is released and nothing is recorded).
     */
    void onError(long durationNanos, Throwable error);

    /**
     * Whether this breaker's configuration records {@code error} as a failure (rather than ignoring it or counting
     * it as a success), by the same rules {@link #onError} applies. Callers use it to decide whether a fallback may
     * answer for the error; it records nothing.
     */
    boolean recordsAsFailure(Throwable error);

    /**
     * Records a call that returned {@code result}; the result predicate decides whether it counts as a failure.
     */
    void onResult(long durationNanos, Object result);

    /** The breaker's clock in nanoseconds, for measuring call durations. */
    long currentTimeNanos();

    /*
     * Manual transitions, e.g. from the actuator. Each is a no-op (no event) when the breaker is already in the
     * target state. CLOSED, METRICS_ONLY and HALF_OPEN start with an empty window; OPEN keeps showing the window
     * of the state it left and waits wait-duration-in-open-state (backed off if it follows a failed HALF_OPEN).
     * DISABLED, FORCED_OPEN and METRICS_ONLY are left only by another manual transition or reset().
     */

    void transitionToClosedState();

    void transitionToOpenState();

    void transitionToHalfOpenState();

    void transitionToDisabledState();

    void transitionToForcedOpenState();

    void transitionToMetricsOnlyState();

    /** Back to CLOSED with an empty window and counters; publishes a reset event. */
    void reset();

    /**
     * Registers a listener for this breaker's events, called on the thread that caused each event, in order:
     * a call's own event (SUCCESS, ERROR, IGNORED_ERROR, NOT_PERMITTED) comes before what it caused
     * (FAILURE_RATE_EXCEEDED or SLOW_CALL_RATE_EXCEEDED, then STATE_TRANSITION). Listeners must be fast; one that
     * throws is logged and cannot disturb the call. SUCCESS events are only built while a listener is registered,
     * so an unobserved healthy call allocates nothing.
     */
    void addListener(GuardEventListener listener);

    /**
     * The most recent events of this breaker, newest first, from a bounded buffer (size set on the registry).
     * SUCCESS events are not buffered, so healthy traffic does not flush the errors, refusals and transitions
     * an operator wants to see.
     */
    List<GuardEvent> recentEvents();

    <T> T executeSupplier(Supplier<T> supplier);

    <T> T executeCallable(Callable<T> callable) throws Exception;

    void executeRunnable(Runnable runnable);

    <T> Supplier<T> decorateSupplier(Supplier<T> supplier);

    <T> Callable<T> decorateCallable(Callable<T> callable);

    Runnable decorateRunnable(Runnable runnable);

    /**
     * Decorates an asynchronous call: the outcome is recorded when the stage completes; a stage that is
     * cancelled releases its permission.
     */
    <T> Supplier<CompletionStage<T>> decorateCompletionStage(Supplier<? extends CompletionStage<T>> supplier);
}
