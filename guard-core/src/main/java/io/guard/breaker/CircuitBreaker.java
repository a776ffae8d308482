package io.guard.breaker;

import io.guard.breaker.window.Snapshot;
import io.guard.event.GuardEvent;
import io.guard.event.GuardEventListener;
import io.guard.function.CheckedFunction;
import io.guard.function.CheckedRunnable;
import io.guard.function.CheckedSupplier;
import io.guard.time.GuardClock;
import io.guard.time.Scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Watches the calls to one downstream and refuses them while the downstream is sick, so that callers fail fast
 * instead of piling up behind timeouts.
 *
 * <p>Three ways to use it. The <em>decorators</em> ({@link #executeSupplier} and friends) do all the bookkeeping.
 * A <em>permit</em> ({@link #tryAcquire()}, then exactly one of the permit's {@code onSuccess}, {@code onResult},
 * {@code onError} or {@code release}) is for callers that run the call themselves, such as the Spring aspects:
 * the permit remembers the state that granted it and when the call started, so a permission given back reaches
 * the state that granted it, a call that hangs is seen (see {@link Permit}), and a second answer is ignored.
 * The handle-less <em>permission API</em> ({@link #tryAcquirePermission()}, {@link #onSuccess},
 * {@link #onError}, {@link #onResult}, {@link #releasePermission()}) is Resilience4j's, kept for migrated code;
 * it cannot tell which state granted a permission, and its calls are not watched for hangs.
 *
 * <p>Durations passed to the permission API are in nanoseconds measured with {@link #currentTimeNanos()}, so
 * that tests which move the breaker's clock by hand also move the measured call durations.
 */
public interface CircuitBreaker {

    /**
     * A breaker that belongs to no registry, on the system clock; a timer thread (which hands due tasks to up to
     * 16 callback threads, as a registry's does) is started only if the configuration needs one (automatic OPEN to
     * HALF_OPEN, a HALF_OPEN maximum wait, a timeout), on first use, and ends when idle.
     * Resilience4j's {@code CircuitBreaker.of}.
     */
    static CircuitBreaker of(String name, CircuitBreakerConfig config) {
        return of(name, config, GuardClock.system(), null);
    }

    /** {@link #of(String, CircuitBreakerConfig)} with Resilience4j's defaults. */
    static CircuitBreaker ofDefaults(String name) {
        return of(name, CircuitBreakerConfig.ofDefaults());
    }

    /**
     * A breaker that belongs to no registry, on {@code clock}, running timeouts and timed transitions on
     * {@code scheduler} (null: a daemon timer thread of its own and its callback threads, started on first use).
     */
    static CircuitBreaker of(String name, CircuitBreakerConfig config, GuardClock clock, Scheduler scheduler) {
        return Standalone.create(name, config, clock, scheduler);
    }

    /**
     * One admitted call, answered exactly once by one of its methods; answers after the first are ignored, so a
     * timeout and a late completion racing each other count the call once. Until it is answered the call counts
     * as running: once it runs longer than slow-call-duration-threshold it counts as a slow call whenever the
     * breaker evaluates its window, so a downstream that hangs opens the breaker on time. Durations are measured
     * from {@link #startNanos()} on the breaker's clock. Any thread may answer.
     */
    interface Permit {

        /** The breaker's clock when the call was admitted. */
        long startNanos();

        /** The state that admitted the call. */
        State state();

        /** The call succeeded. */
        void onSuccess();

        /** The call returned {@code result}; the result predicate decides whether it failed. */
        void onResult(Object result);

        /**
         * The call failed with {@code error}, classified by the configuration (an ignored error releases). Returns
         * whether the error counts as a failure ({@link CircuitBreaker#recordsAsFailure}), the classification made for
         * recording, so that a caller choosing a fallback need not classify again.
         */
        boolean onError(Throwable error);

        /** The call was not made or was cancelled: the permission goes back to the state that granted it. */
        void release();

        /**
         * The caller gave up on the call after the breaker's {@link CircuitBreakerConfig#timeout() timeout}: a failure
         * whatever record-exceptions and ignore-exceptions say, since an answer that never came is the downstream's.
         */
        void onTimeout(TimeoutException error);

        /**
         * Arms the breaker's {@link CircuitBreakerConfig#timeout() timeout} (nothing when it is zero): if the permit
         * is still unanswered when it passes, on the breaker's clock, the call is recorded as a timed-out failure and
         * {@code action} gets the {@link java.util.concurrent.TimeoutException}, to complete or cancel the caller's
         * future. Answering the permit first disarms it.
         */
        void whenTimedOut(Consumer<TimeoutException> action);
    }

    /**
     * Asks to make one call: a permit to answer, or {@code null} when the state refuses (counted and published as
     * a not-permitted event).
     */
    Permit tryAcquire();

    /** Like {@link #tryAcquire()}, but throws {@link CallNotPermittedException} on refusal. */
    Permit acquire();

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

    /** OPEN for {@code wait} instead of the configured wait; from any state, OPEN included (the wait restarts). */
    void transitionToOpenStateFor(Duration wait);

    /** OPEN until {@code until} (on the breaker's clock); from any state, OPEN included. */
    void transitionToOpenStateUntil(Instant until);

    void transitionToHalfOpenState();

    void transitionToDisabledState();

    void transitionToForcedOpenState();

    void transitionToMetricsOnlyState();

    /**
     * Back to CLOSED with an empty window and counters; publishes a state transition (unless it was CLOSED) and
     * a reset event, as Resilience4j does.
     */
    void reset();

    /**
     * Registers a listener for this breaker's events, called on the thread that caused each event, in order:
     * a call's own event (SUCCESS, ERROR, IGNORED_ERROR, NOT_PERMITTED) comes before what it caused
     * (FAILURE_RATE_EXCEEDED or SLOW_CALL_RATE_EXCEEDED, then STATE_TRANSITION). STATE_TRANSITION and RESET events
     * reach every listener in the order the transitions happened (each {@code from} is the previous {@code to}),
     * whatever the threads; events of calls on different threads are not ordered among themselves. Listeners must be
     * fast (a transition's listeners run while the breaker's next transition waits); one that throws is logged and
     * cannot disturb the call. SUCCESS events are only built while a listener is registered,
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

    <T> T executeCheckedSupplier(CheckedSupplier<T> supplier) throws Throwable;

    void executeCheckedRunnable(CheckedRunnable runnable) throws Throwable;

    <T> CheckedSupplier<T> decorateCheckedSupplier(CheckedSupplier<T> supplier);

    CheckedRunnable decorateCheckedRunnable(CheckedRunnable runnable);

    <T, R> CheckedFunction<T, R> decorateCheckedFunction(CheckedFunction<T, R> function);

    <T, R> Function<T, R> decorateFunction(Function<T, R> function);

    <T> Consumer<T> decorateConsumer(Consumer<T> consumer);

    /**
     * Decorates an asynchronous call: the outcome is recorded when the stage completes; a stage that is
     * cancelled releases its permission. With a {@link CircuitBreakerConfig#timeout() timeout}, a stage still
     * running when it passes is completed with a {@link java.util.concurrent.TimeoutException} (which cancels the
     * work behind a {@code CompletableFuture} only as far as that work checks), recorded as a failure whatever
     * the exception rules say.
     */
    <T> Supplier<CompletionStage<T>> decorateCompletionStage(Supplier<? extends CompletionStage<T>> supplier);
}
