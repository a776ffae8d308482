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
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
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
    private final AtomicReference<BreakerState> current;
    private final LongAdder notPermitted = new LongAdder();

    DefaultCircuitBreaker(String name, CircuitBreakerConfig config, GuardClock clock, Scheduler scheduler,
                          int eventBufferSize) {
        this.name = name;
        this.config = config;
        this.clock = clock;
        this.scheduler = scheduler;
        this.events = new BreakerEvents(name, clock, eventBufferSize);
        this.classifier = new Classifier(name, config);
        this.slowNanos = config.slowCallDurationThreshold().toNanos();
        this.current = new AtomicReference<>();
        this.current.set(new ClosedState(this));
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
        current.get().refresh();
        return current.get().state();
    }

    @Override
    public Snapshot snapshot() {
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
        return tryGrant() != null;
    }

    @Override
    public void acquirePermission() {
        grant();
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
    BreakerState tryGrant() {
        BreakerState granting = current.get().acquire();
        if (granting == null) {
            notPermitted.increment();
            events.publish(GuardEvent.Type.NOT_PERMITTED, 0, Map.of("state", current.get().state().name()));
        }
        return granting;
    }

    @Override
    BreakerState grant() {
        BreakerState granting = tryGrant();
        if (granting == null) {
            BreakerState refusing = current.get();
            throw new CallNotPermittedException(name, refusing.state(),
                    Duration.ofNanos(refusing.remainingOpenNanos()));
        }
        return granting;
    }

    @Override
    void release(BreakerState granting) {
        granting.release();
    }

    @Override
    public void onSuccess(long durationNanos) {
        events.success(durationNanos);
        current.get().record(durationNanos, false);
    }

    @Override
    public void onError(long durationNanos, Throwable error) {
        onError(current.get(), durationNanos, error);
    }

    @Override
    void onError(BreakerState granting, long durationNanos, Throwable error) {
        switch (classifier.classify(error)) {
            case FAILURE -> {
                events.publish(GuardEvent.Type.ERROR, durationNanos, Map.of("error", error.getClass().getName()));
                current.get().record(durationNanos, true);
            }
            case IGNORED -> {
                events.publish(GuardEvent.Type.IGNORED_ERROR, durationNanos,
                        Map.of("error", error.getClass().getName()));
                granting.release();
            }
            case SUCCESS -> onSuccess(durationNanos);
        }
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
        } else {
            onSuccess(durationNanos);
        }
    }

    @Override
    public long currentTimeNanos() {
        return clock.nanoTime();
    }

    @Override
    public void transitionToClosedState() {
        manual(s -> s instanceof ClosedState ? null : new ClosedState(this));
    }

    @Override
    public void transitionToOpenState() {
        manual(s -> s instanceof OpenState ? null : new OpenState(this, s.window(), nextAttempt(s)));
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

    @Override
    public void reset() {
        BreakerState previous = current.getAndSet(new ClosedState(this));
        previous.onExit();
        notPermitted.reset();
        events.publish(GuardEvent.Type.RESET, 0, Map.of("from", previous.state().name()));
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
     * object, so a threshold crossing seen by many threads opens the breaker, and is published, once.
     */
    boolean transition(BreakerState from, BreakerState to, Snapshot cause) {
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

    private static int nextAttempt(BreakerState s) {
        return s instanceof HalfOpenState half ? half.attempt() + 1 : 1;
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
