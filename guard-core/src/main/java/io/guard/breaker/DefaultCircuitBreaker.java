package io.guard.breaker;

import io.guard.breaker.window.CountWindow;
import io.guard.breaker.window.SlidingWindow;
import io.guard.breaker.window.Snapshot;
import io.guard.breaker.window.TimeWindow;
import io.guard.event.GuardEvent;
import io.guard.event.GuardEventListener;
import io.guard.time.GuardClock;
import io.guard.time.Scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * A breaker as callers see it: grants permissions and watches the calls they admit for hangs, handing outcomes to
 * {@link BreakerOutcomes} and state changes to {@link BreakerTransitions}; the {@link BreakerState}s decide.
 */
final class DefaultCircuitBreaker extends DecoratingCircuitBreaker {

    private final String name;
    private final CircuitBreakerConfig config;
    private final GuardClock clock;
    private final Scheduler scheduler;
    private final BreakerEvents events;
    private final long slowNanos;
    private final InFlightCalls inFlight;
    private final BreakerTransitions transitions;
    private final BreakerOutcomes outcomes;
    private final LongAdder notPermitted = new LongAdder();
    private final BreakerTime time; // null: the clock's nanoTime, the common case, read without a detour

    DefaultCircuitBreaker(String name, CircuitBreakerConfig config, GuardClock clock, Scheduler scheduler,
                          int eventBufferSize) {
        this.name = name;
        this.config = config;
        this.clock = clock;
        this.scheduler = scheduler;
        this.events = new BreakerEvents(name, clock, eventBufferSize);
        this.slowNanos = config.slowCallDurationThreshold().toNanos();
        this.inFlight = new InFlightCalls(slowNanos);
        this.time = config.currentTimestampFunction() == null ? null : new BreakerTime(clock, config);
        this.transitions = new BreakerTransitions(this, config, clock, events);
        this.outcomes = new BreakerOutcomes(name, config, events, transitions);
        transitions.start();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public CircuitBreakerConfig config() {
        return config;
    }

    @Override
    public State state() {
        lookForHungCalls(currentTimeNanos());
        transitions.current().refresh();
        return transitions.current().state();
    }

    @Override
    public Snapshot snapshot() {
        lookForHungCalls(currentTimeNanos());
        return transitions.current().snapshot();
    }

    @Override
    public long notPermittedCalls() {
        return notPermitted.sum();
    }

    @Override
    public Duration remainingOpenTime() {
        return Duration.ofNanos(transitions.current().remainingOpenNanos());
    }

    @Override
    BreakerState tryGrant(long nowNanos) {
        if (inFlight.advance(nowNanos)) { // lookForHungCalls, written out on the path every call takes
            transitions.current().checkHung();
        }
        BreakerState granting = transitions.current().acquire();
        if (granting == null) {
            notPermitted.increment();
            events.publish(GuardEvent.Type.NOT_PERMITTED, 0, Map.of("state", transitions.current().state().name()));
        }
        return granting;
    }

    @Override
    BreakerState grant(long nowNanos) {
        BreakerState granting = tryGrant(nowNanos);
        if (granting == null) {
            BreakerState refusing = transitions.current();
            throw new CallNotPermittedException(name, refusing.state(),
                    Duration.ofNanos(refusing.remainingOpenNanos()), config.writableStackTraceEnabled());
        }
        return granting;
    }

    @Override
    void release(BreakerState granting) {
        granting.release();
    }

    @Override
    int[] started(long startNanos) {
        return inFlight.start(startNanos);
    }

    /**
     * Once per tracking generation (at most an eighth of slow-call-duration-threshold), before a call is granted
     * or the state is read: lets the current state count calls that started long enough ago and still run as
     * slow calls, so the call that finds every earlier call hung is refused, and state() says OPEN without
     * waiting for a call. O(1) for every other call of the generation.
     */
    private void lookForHungCalls(long nowNanos) {
        if (inFlight.advance(nowNanos)) {
            transitions.current().checkHung();
        }
    }

    @Override
    void finishedHere(int[] cell, long startNanos) {
        inFlight.finishOnStartingThread(cell, startNanos);
    }

    @Override
    void finished(int[] cell, long startNanos) {
        inFlight.finish(cell, startNanos);
    }

    /** Calls started at or after {@code sinceNanos} and still running past slow-call-duration-threshold. */
    int hungSince(long sinceNanos) {
        return inFlight.hung(currentTimeNanos(), sinceNanos);
    }

    @Override
    Runnable schedule(Duration delay, Runnable task) {
        return scheduler.schedule(delay, task);
    }

    @Override
    void onSuccess(long durationNanos) {
        outcomes.success(durationNanos);
    }

    @Override
    void onTimeout(long durationNanos, TimeoutException error) {
        outcomes.timeout(durationNanos, error);
    }

    @Override
    boolean onError(BreakerState granting, long durationNanos, Throwable error) {
        return outcomes.error(granting, durationNanos, error);
    }

    @Override
    boolean recordsAsFailure(Throwable error) {
        return outcomes.recordsAsFailure(error);
    }

    @Override
    void onResult(long durationNanos, Object result) {
        outcomes.result(durationNanos, result);
    }

    @Override
    public long currentTimeNanos() {
        return time == null ? clock.nanoTime() : time.nanos();
    }

    @Override
    public void transitionToClosedState() {
        transitions.toClosed();
    }

    @Override
    public void transitionToOpenState() {
        transitions.toOpen();
    }

    @Override
    public void transitionToOpenStateFor(Duration wait) {
        transitions.toOpenFor(wait);
    }

    @Override
    public void transitionToOpenStateUntil(Instant until) {
        transitions.toOpenUntil(until);
    }

    @Override
    public void transitionToHalfOpenState() {
        transitions.toHalfOpen();
    }

    @Override
    public void transitionToDisabledState() {
        transitions.toDisabled();
    }

    @Override
    public void transitionToForcedOpenState() {
        transitions.toForcedOpen();
    }

    @Override
    public void transitionToMetricsOnlyState() {
        transitions.toMetricsOnly();
    }

    /** Also forgets the refused calls counted so far. */
    @Override
    public void reset() {
        transitions.reset(notPermitted::reset);
    }

    @Override
    public void addListener(GuardEventListener listener) {
        events.addListener(listener);
    }

    @Override
    public List<GuardEvent> recentEvents() {
        return events.recent();
    }

    @Override
    public String toString() {
        return "CircuitBreaker[" + name + ", " + transitions.current().state() + "]";
    }

    @Override
    BreakerState currentState() {
        return transitions.current();
    }

    // ---- used by the states ----

    SlidingWindow newWindow() {
        return switch (config.slidingWindowType()) {
            case COUNT_BASED -> new CountWindow(config.slidingWindowSize(), config.minimumNumberOfCalls());
            case TIME_BASED -> new TimeWindow(config.slidingWindowSize(), config.minimumNumberOfCalls(), clock);
        };
    }

    /** Strictly longer than the threshold, as in Resilience4j: a call of exactly the threshold is not slow. */
    boolean isSlow(long durationNanos) {
        return durationNanos > slowNanos;
    }

    /** Whether a snapshot crosses a threshold; rates below minimum-number-of-calls are -1 and never do. */
    boolean exceeds(Snapshot s) {
        return (s.failureRate() >= 0 && s.failureRate() >= config.failureRateThreshold())
                || (s.slowCallRate() >= 0 && s.slowCallRate() >= config.slowCallRateThreshold());
    }

    Runnable schedule(long delayNanos, Runnable task) {
        return scheduler.schedule(Duration.ofNanos(delayNanos), task);
    }

    boolean transition(BreakerState from, BreakerState to, Snapshot cause) {
        return transitions.transition(from, to, cause);
    }

    void publishExceeded(Snapshot s) {
        transitions.publishExceeded(s);
    }
}
