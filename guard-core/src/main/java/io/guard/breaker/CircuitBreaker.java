package io.guard.breaker;

import io.guard.breaker.window.Snapshot;
import io.guard.event.GuardEvent;
import io.guard.event.GuardEventListener;
import io.guard.time.GuardClock;
import io.guard.time.Scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Watches the calls to one downstream and refuses them while the downstream is sick, so that callers fail fast
 * instead of piling up behind timeouts.
 *
 * <p>One protocol: ask for a {@link Permit} ({@link #tryAcquire()} or {@link #acquire()}), make the call, then give
 * exactly one of the permit's {@code onSuccess}, {@code onResult}, {@code onError} or {@code release}. The permit
 * remembers the state that granted it and when the call started, so a permission given back reaches the state that
 * granted it, a call that hangs is seen (see {@link Permit}), and a second answer is ignored. The rest of this type
 * is the breaker's state, its administration (manual transitions, {@link #reset()}) and its events.
 *
 * <p>Built on this protocol: {@link CircuitBreakerDecorators} runs or wraps a call (a {@code Supplier}, a
 * {@code Runnable}, a {@code CompletionStage}...) with the bookkeeping done; {@link CircuitBreakerPermissions} is
 * Resilience4j's handle-less permission API ({@code tryAcquirePermission}, {@code onSuccess(duration)}...), for code
 * migrating from Resilience4j.
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
         * whether the error counts as a failure (by record-exceptions and ignore-exceptions), the classification made
         * for recording, so that a caller choosing a fallback need not classify again; a permit answered already
         * records nothing and still says how the error would be classified.
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
     * The breaker's clock in nanoseconds: the timeline of {@link Permit#startNanos()}, its waits and its
     * timeouts, for callers that time a permitted call themselves.
     */
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
}
