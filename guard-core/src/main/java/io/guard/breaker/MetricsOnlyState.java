package io.guard.breaker;

import io.guard.breaker.window.SlidingWindow;
import io.guard.breaker.window.Snapshot;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Calls flow and are recorded, and crossing a threshold is published as an event, but the breaker never opens:
 * for watching what a breaker would do before letting it act. The event fires once per crossing.
 */
final class MetricsOnlyState implements BreakerState {

    private final DefaultCircuitBreaker breaker;
    private final SlidingWindow window;
    private final AtomicBoolean exceeded = new AtomicBoolean();
    private final long enteredAt;

    MetricsOnlyState(DefaultCircuitBreaker breaker) {
        this.breaker = breaker;
        this.window = breaker.newWindow();
        this.enteredAt = breaker.currentTimeNanos();
    }

    @Override
    public State state() {
        return State.METRICS_ONLY;
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
            publishIfExceeded(window.withHungCalls(snapshot, breaker.hungSince(enteredAt)));
        }
    }

    @Override
    public void checkHung() {
        int hung = breaker.hungSince(enteredAt);
        if (hung > 0) {
            publishIfExceeded(window.withHungCalls(window.snapshot(), hung));
        }
    }

    private void publishIfExceeded(Snapshot snapshot) {
        if (breaker.exceeds(snapshot)) {
            if (exceeded.compareAndSet(false, true)) {
                breaker.publishExceeded(snapshot);
            }
        } else {
            exceeded.set(false);
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
