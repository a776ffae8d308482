package io.guard.breaker;

import io.guard.breaker.window.SlidingWindow;
import io.guard.breaker.window.Snapshot;

/**
 * Calls flow and are recorded; the first call that finds a threshold crossed opens the breaker. Calls admitted
 * here that are still running past the slow-call threshold count as slow calls whenever the window is evaluated.
 */
final class ClosedState implements BreakerState {

    private final DefaultCircuitBreaker breaker;
    private final SlidingWindow window;
    private final long enteredAt;

    ClosedState(DefaultCircuitBreaker breaker) {
        this.breaker = breaker;
        this.window = breaker.newWindow();
        this.enteredAt = breaker.currentTimeNanos();
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
        if (snapshot != null) {
            openIfExceeded(window.withHungCalls(snapshot, breaker.hungSince(enteredAt)));
        }
    }

    @Override
    public void checkHung() {
        int hung = breaker.hungSince(enteredAt);
        if (hung > 0) {
            openIfExceeded(window.withHungCalls(window.snapshot(), hung));
        }
    }

    private void openIfExceeded(Snapshot snapshot) {
        if (breaker.exceeds(snapshot)) {
            breaker.transition(this, new OpenState(breaker, this, 1), snapshot);
        }
    }

    @Override
    public Snapshot snapshot() {
        return window.withHungCalls(window.snapshot(), breaker.hungSince(enteredAt));
    }

    @Override
    public SlidingWindow window() {
        return window;
    }

    @Override
    public long windowSince() {
        return enteredAt;
    }
}
