package io.guard.breaker;

import io.guard.breaker.window.Snapshot;
import io.guard.event.GuardEvent;
import io.guard.time.GuardClock;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Holds one breaker's current {@link BreakerState} and moves it on: the transitions the states ask for, the manual
 * ones and reset, each made by compare-and-set and published in the order it happened.
 */
final class BreakerTransitions {

    private final DefaultCircuitBreaker breaker; // the states are built for it
    private final CircuitBreakerConfig config;
    private final GuardClock clock;
    private final BreakerEvents events;
    private final AtomicReference<BreakerState> current = new AtomicReference<>();
    private final Object lock = new Object(); // held while a transition is made and published

    BreakerTransitions(DefaultCircuitBreaker breaker, CircuitBreakerConfig config, GuardClock clock,
                       BreakerEvents events) {
        this.breaker = breaker;
        this.config = config;
        this.clock = clock;
        this.events = events;
    }

    /** Enters the configured initial state; once, when the breaker is fully built. */
    void start() {
        BreakerState initial = switch (config.initialState()) {
            case CLOSED -> new ClosedState(breaker);
            case OPEN -> new OpenState(breaker, null, 1);
            case HALF_OPEN -> new HalfOpenState(breaker, 1);
            case DISABLED -> new DisabledState();
            case FORCED_OPEN -> new ForcedOpenState();
            case METRICS_ONLY -> new MetricsOnlyState(breaker);
        };
        current.set(initial);
        initial.onEnter();
    }

    BreakerState current() {
        return current.get();
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
        synchronized (lock) {
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

    /** Opens {@code from} as a transition-on-result check asked, for the wait it names or the configured one. */
    void openAfterCheck(BreakerState from, TransitionCheck check) {
        long waitNanos;
        if (check.waitUntil() != null) {
            waitNanos = Duration.between(clock.instant(), check.waitUntil()).toNanos();
        } else {
            waitNanos = check.waitFor() != null ? check.waitFor().toNanos()
                    : config.waitDurationInOpenState(nextAttempt(from)).toNanos();
        }
        transition(from, new OpenState(breaker, from, nextAttempt(from), waitNanos), null);
    }

    void toClosed() {
        manual(s -> s instanceof ClosedState ? null : new ClosedState(breaker));
    }

    void toOpen() {
        manual(s -> s instanceof OpenState ? null : new OpenState(breaker, s, nextAttempt(s)));
    }

    void toOpenFor(Duration wait) {
        Objects.requireNonNull(wait, "wait");
        manual(s -> new OpenState(breaker, s, nextAttempt(s), wait.toNanos()));
    }

    void toOpenUntil(Instant until) {
        Objects.requireNonNull(until, "until");
        manual(s -> new OpenState(breaker, s, nextAttempt(s), Duration.between(clock.instant(), until).toNanos()));
    }

    void toHalfOpen() {
        manual(s -> s instanceof HalfOpenState ? null
                : new HalfOpenState(breaker, s instanceof OpenState open ? open.attempt() : 1));
    }

    void toDisabled() {
        manual(s -> s instanceof DisabledState ? null : new DisabledState());
    }

    void toForcedOpen() {
        manual(s -> s instanceof ForcedOpenState ? null : new ForcedOpenState());
    }

    void toMetricsOnly() {
        manual(s -> s instanceof MetricsOnlyState ? null : new MetricsOnlyState(breaker));
    }

    /**
     * Back to a new CLOSED whatever the state, running {@code alsoReset} under the lock. A state-transition event
     * is published when the breaker was not CLOSED, so that listeners tracking the state from transitions
     * (metrics, dashboards) follow a reset; then the reset event.
     */
    void reset(Runnable alsoReset) {
        synchronized (lock) {
            BreakerState previous = current.getAndSet(new ClosedState(breaker));
            previous.onExit();
            alsoReset.run();
            if (previous.state() != State.CLOSED) {
                events.publish(GuardEvent.Type.STATE_TRANSITION, 0,
                        Map.of("from", previous.state().name(), "to", State.CLOSED.name()));
            }
            events.publish(GuardEvent.Type.RESET, 0, Map.of("from", previous.state().name()));
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
