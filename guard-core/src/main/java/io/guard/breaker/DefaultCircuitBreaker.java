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
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The state machine: a reference to the current {@link BreakerState}, swapped by CAS. The states decide; this
 * class classifies outcomes, performs transitions and publishes events.
 */
final class DefaultCircuitBreaker extends DecoratingCircuitBreaker {

    private final String name;
    private final CircuitBreakerConfig config;
    private final GuardClock clock;
    private final Scheduler scheduler;
    private final BreakerEvents events;
    private final Classifier classifier;
    private final long slowNanos;
    private final InFlightCalls inFlight;
    private final BiFunction<Object, Throwable, TransitionCheck> transitionOnResult;
    private final AtomicReference<BreakerState> current;
    private final LongAdder notPermitted = new LongAdder();
    private final Object transitions = new Object(); // held while a transition is made and published
    private final Function<java.time.Clock, Long> timestamps; // null: the clock's nanoTime, the common case
    private final TimeUnit timestampUnit;
    private final java.time.Clock clockView;

    DefaultCircuitBreaker(String name, CircuitBreakerConfig config, GuardClock clock, Scheduler scheduler,
                          int eventBufferSize) {
        this.name = name;
        this.config = config;
        this.clock = clock;
        this.scheduler = scheduler;
        this.events = new BreakerEvents(name, clock, eventBufferSize);
        this.classifier = new Classifier(name, config);
        this.slowNanos = config.slowCallDurationThreshold().toNanos();
        this.inFlight = new InFlightCalls(slowNanos);
        this.transitionOnResult = config.transitionOnResult();
        this.timestamps = config.currentTimestampFunction();
        this.timestampUnit = config.timestampUnit();
        this.clockView = timestamps == null ? null : new GuardClockView(clock, java.time.ZoneOffset.UTC);
        this.current = new AtomicReference<>();
        BreakerState initial = initialState(config.initialState());
        this.current.set(initial);
        initial.onEnter();
    }

    private BreakerState initialState(State state) {
        return switch (state) {
            case CLOSED -> new ClosedState(this);
            case OPEN -> new OpenState(this, null, 1);
            case HALF_OPEN -> new HalfOpenState(this, 1);
            case DISABLED -> new DisabledState();
            case FORCED_OPEN -> new ForcedOpenState();
            case METRICS_ONLY -> new MetricsOnlyState(this);
        };
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
        current.get().refresh();
        return current.get().state();
    }

    @Override
    public Snapshot snapshot() {
        lookForHungCalls(currentTimeNanos());
        return current.get().snapshot();
    }

    @Override
    public long notPermittedCalls() {
        return notPermitted.sum();
    }

    @Override
    public Duration remainingOpenTime() {
        return Duration.ofNanos(current.get().remainingOpenNanos());
    }

    @Override
    public boolean tryAcquirePermission() {
        return tryGrant(currentTimeNanos()) != null;
    }

    @Override
    public void acquirePermission() {
        grant(currentTimeNanos());
    }

    /**
     * Gives the permission back to the current state: the permission API has no token, so it cannot tell a
     * permission granted by an earlier state. The decorators use {@link #release(BreakerState)} instead.
     */
    @Override
    public void releasePermission() {
        current.get().release();
    }

    @Override
    BreakerState tryGrant(long nowNanos) {
        lookForHungCalls(nowNanos);
        BreakerState granting = current.get().acquire();
        if (granting == null) {
            notPermitted.increment();
            events.publish(GuardEvent.Type.NOT_PERMITTED, 0, Map.of("state", current.get().state().name()));
        }
        return granting;
    }

    @Override
    BreakerState grant(long nowNanos) {
        BreakerState granting = tryGrant(nowNanos);
        if (granting == null) {
            BreakerState refusing = current.get();
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
            current.get().checkHung();
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
    public void onSuccess(long durationNanos) {
        recordSuccess(durationNanos);
    }

    private void recordSuccess(long durationNanos) {
        events.success(durationNanos);
        current.get().record(durationNanos, false);
    }

    @Override
    void onTimeout(long durationNanos, TimeoutException error) {
        events.publish(GuardEvent.Type.ERROR, durationNanos, Map.of("error", error.getClass().getName(),
                "timeout", config.timeout().toString()));
        current.get().record(durationNanos, true);
        if (transitionOnResult != null) {
            checkTransition(null, error);
        }
    }

    @Override
    public void onError(long durationNanos, Throwable error) {
        onError(current.get(), durationNanos, error);
    }

    @Override
    boolean onError(BreakerState granting, long durationNanos, Throwable error) {
        Classifier.Verdict verdict = classifier.classify(error);
        switch (verdict) {
            case FAILURE -> {
                events.publish(GuardEvent.Type.ERROR, durationNanos, Map.of("error", error.getClass().getName()));
                current.get().record(durationNanos, true);
                if (transitionOnResult != null) {
                    checkTransition(null, error);
                }
            }
            case IGNORED -> {
                events.publish(GuardEvent.Type.IGNORED_ERROR, durationNanos,
                        Map.of("error", error.getClass().getName()));
                granting.release();
            }
            case SUCCESS -> {
                recordSuccess(durationNanos);
                if (transitionOnResult != null) {
                    checkTransition(null, error);
                }
            }
        }
        return verdict == Classifier.Verdict.FAILURE;
    }

    @Override
    public boolean recordsAsFailure(Throwable error) {
        return classifier.classify(error) == Classifier.Verdict.FAILURE;
    }

    @Override
    public void onResult(long durationNanos, Object result) {
        if (classifier.resultIsFailure(result)) {
            events.publish(GuardEvent.Type.ERROR, durationNanos,
                    Map.of("result", result == null ? "null" : result.getClass().getName()));
            current.get().record(durationNanos, true);
            return;
        }
        recordSuccess(durationNanos);
        if (transitionOnResult != null && result != null) {
            checkTransition(result, null);
        }
    }

    /**
     * Asks transition-on-result about one outcome, where Resilience4j asks it: a non-null result not recorded as a
     * failure, or a throwable that is not ignored (a timeout included); never a plain success. Only CLOSED acts on
     * the answer; HALF_OPEN decides by its trial calls, and the other states ignore it, as in Resilience4j.
     */
    private void checkTransition(Object result, Throwable error) {
        BreakerState from = current.get();
        if (!(from instanceof ClosedState)) {
            return;
        }
        TransitionCheck check = classifier.transitionCheck(transitionOnResult, result, error);
        if (check.open()) {
            transition(from, new OpenState(this, from, nextAttempt(from), waitNanos(check, from)), null);
        }
    }

    private long waitNanos(TransitionCheck check, BreakerState from) {
        if (check.waitUntil() != null) {
            return Duration.between(clock.instant(), check.waitUntil()).toNanos();
        }
        return check.waitFor() != null ? check.waitFor().toNanos()
                : config.waitDurationInOpenState(nextAttempt(from)).toNanos();
    }

    @Override
    public long currentTimeNanos() {
        return timestamps == null ? clock.nanoTime() : timestampUnit.toNanos(timestamps.apply(clockView));
    }

    @Override
    public void transitionToClosedState() {
        manual(s -> s instanceof ClosedState ? null : new ClosedState(this));
    }

    @Override
    public void transitionToOpenState() {
        manual(s -> s instanceof OpenState ? null : new OpenState(this, s, nextAttempt(s)));
    }

    @Override
    public void transitionToOpenStateFor(Duration wait) {
        Objects.requireNonNull(wait, "wait");
        manual(s -> new OpenState(this, s, nextAttempt(s), wait.toNanos()));
    }

    @Override
    public void transitionToOpenStateUntil(Instant until) {
        Objects.requireNonNull(until, "until");
        manual(s -> new OpenState(this, s, nextAttempt(s),
                Duration.between(clock.instant(), until).toNanos()));
    }

    @Override
    public void transitionToHalfOpenState() {
        manual(s -> s instanceof HalfOpenState ? null
                : new HalfOpenState(this, s instanceof OpenState open ? open.attempt() : 1));
    }

    @Override
    public void transitionToDisabledState() {
        manual(s -> s instanceof DisabledState ? null : new DisabledState());
    }

    @Override
    public void transitionToForcedOpenState() {
        manual(s -> s instanceof ForcedOpenState ? null : new ForcedOpenState());
    }

    @Override
    public void transitionToMetricsOnlyState() {
        manual(s -> s instanceof MetricsOnlyState ? null : new MetricsOnlyState(this));
    }

    /**
     * A state-transition event is published when the breaker was not CLOSED, so that listeners tracking the state
     * from transitions (metrics, dashboards) follow a reset; then the reset event.
     */
    @Override
    public void reset() {
        synchronized (transitions) {
            BreakerState previous = current.getAndSet(new ClosedState(this));
            previous.onExit();
            notPermitted.reset();
            if (previous.state() != State.CLOSED) {
                events.publish(GuardEvent.Type.STATE_TRANSITION, 0,
                        Map.of("from", previous.state().name(), "to", State.CLOSED.name()));
            }
            events.publish(GuardEvent.Type.RESET, 0, Map.of("from", previous.state().name()));
        }
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
        return "CircuitBreaker[" + name + ", " + current.get().state() + "]";
    }

    // ---- used by the states ----

    BreakerState currentState() {
        return current.get();
    }

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


    /**
     * Moves from {@code from} to {@code to} if {@code from} is still current. Exactly one caller wins per state
     * object, so a threshold crossing seen by many threads opens the breaker, and is published, once. Transitions
     * are made and published under one lock, so listeners hear them in the order they happened (each event's
     * {@code from} is the previous one's {@code to}); only transitions take it, and a stale {@code from} is
     * turned away before it.
     */
    boolean transition(BreakerState from, BreakerState to, Snapshot cause) {
        if (current.get() != from) {
            return false;
        }
        synchronized (transitions) {
            if (!current.compareAndSet(from, to)) {
                return false;
            }
            from.onExit();
            if (cause != null) {
                publishExceeded(cause);
            }
            events.publish(GuardEvent.Type.STATE_TRANSITION, 0,
                    Map.of("from", from.state().name(), "to", to.state().name()));
            to.onEnter();
            return true;
        }
    }

    void publishExceeded(Snapshot s) {
        if (s.failureRate() >= 0 && s.failureRate() >= config.failureRateThreshold()) {
            events.publish(GuardEvent.Type.FAILURE_RATE_EXCEEDED, 0, Map.of("failureRate",
                    Float.toString(s.failureRate()), "threshold", Float.toString(config.failureRateThreshold())));
        }
        if (s.slowCallRate() >= 0 && s.slowCallRate() >= config.slowCallRateThreshold()) {
            events.publish(GuardEvent.Type.SLOW_CALL_RATE_EXCEEDED, 0, Map.of("slowCallRate",
                    Float.toString(s.slowCallRate()), "threshold", Float.toString(config.slowCallRateThreshold())));
        }
    }

    /** OPEN after a HALF_OPEN backs off further; OPEN after OPEN keeps its attempt; anything else starts at 1. */
    private static int nextAttempt(BreakerState s) {
        if (s instanceof HalfOpenState half) {
            return half.attempt() + 1;
        }
        return s instanceof OpenState open ? open.attempt() : 1;
    }

    private void manual(Function<BreakerState, BreakerState> next) {
        while (true) {
            BreakerState from = current.get();
            BreakerState to = next.apply(from);
            if (to == null || transition(from, to, null)) {
                return;
            }
        }
    }
}
