package io.guard.breaker;

import io.guard.breaker.window.SlidingWindow;
import io.guard.breaker.window.Snapshot;

/** Calls flow and are recorded; the first call that finds a threshold crossed opens the breaker. */
final class ClosedState implements BreakerState {

    private final DefaultCircuitBreaker breaker;
    private final SlidingWindow window;

    ClosedState(DefaultCircuitBreaker breaker) {
        this.breaker = breaker;
        this.window = breaker.newWindow();
    }

    @Override
    public State state() {
        return State.CLOSED;
    }

    @Override
    public BreakerState acquire() {
        return this;
    }

    @Override
    public void release() {
    }

    @Override
    public void record(long durationNanos, boolean failed) {
        Snapshot snapshot = window.record(durationNanos, failed, breaker.isSlow(durationNanos));
        if (snapshot != null && breaker.exceeds(snapshot)) {
            breaker.transition(this, new OpenState(breaker, window, 1), snapshot);
        }
    }

    @Override
    public Snapshot snapshot() {
        return window.snapshot();
    }

    @Override
    public SlidingWindow window() {
        return window;
    }
}
