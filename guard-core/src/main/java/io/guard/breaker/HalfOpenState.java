package io.guard.breaker;

import io.guard.breaker.window.CountWindow;
import io.guard.breaker.window.SlidingWindow;
import io.guard.breaker.window.Snapshot;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admits {@code permitted-number-of-calls-in-half-open-state} trial calls; once that many outcomes are in, the
 * breaker closes or opens again. A permission given back (ignored error, cancelled call) is admitted again, so
 * the state cannot wait forever for a trial that never reports; max-wait-duration-in-half-open-state is the
 * safety net for callers of the permission API that never answer.
 */
final class HalfOpenState implements BreakerState {

    private final DefaultCircuitBreaker breaker;
    private final int permitted;
    private final SlidingWindow window;
    private final AtomicInteger permits;
    private final int attempt;
    private final long enteredAt;
    private volatile Runnable cancelTimer;

    HalfOpenState(DefaultCircuitBreaker breaker, int attempt) {
        this.breaker = breaker;
        this.permitted = breaker.config().permittedNumberOfCallsInHalfOpenState();
        this.window = new CountWindow(permitted, permitted);
        this.permits = new AtomicInteger(permitted);
        this.attempt = attempt;
        this.enteredAt = breaker.currentTimeNanos();
    }

    @Override
    public State state() {
        return State.HALF_OPEN;
    }

    @Override
    public BreakerState acquire() {
        if (overdue()) {
            reopen(null);
            return breaker.currentState().acquire();
        }
        while (true) {
            int left = permits.get();
            if (left <= 0) {
                return null;
            }
            if (permits.compareAndSet(left, left - 1)) {
                return this;
            }
        }
    }

    @Override
    public void release() {
        while (true) {
            int left = permits.get();
            if (left >= permitted || permits.compareAndSet(left, left + 1)) {
                return;
            }
        }
    }

    @Override
    public void record(long durationNanos, boolean failed) {
        Snapshot snapshot = window.record(durationNanos, failed, breaker.isSlow(durationNanos));
        if (snapshot == null || snapshot.calls() < permitted) {
            return;
        }
        if (breaker.exceeds(snapshot)) {
            reopen(snapshot);
        } else {
            breaker.transition(this, new ClosedState(breaker), null);
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

    int attempt() {
        return attempt;
    }

    /** Trial permits not taken yet. */
    int permitsLeft() {
        return permits.get();
    }

    @Override
    public void refresh() {
        if (overdue()) {
            reopen(null);
        }
    }

    @Override
    public void onEnter() {
        long maxWait = breaker.config().maxWaitDurationInHalfOpenState().toNanos();
        if (maxWait > 0) {
            cancelTimer = breaker.schedule(maxWait, () -> reopen(null));
        }
    }

    @Override
    public void onExit() {
        Runnable cancel = cancelTimer;
        if (cancel != null) {
            cancel.run();
        }
    }

    private boolean overdue() {
        long maxWait = breaker.config().maxWaitDurationInHalfOpenState().toNanos();
        return maxWait > 0 && breaker.currentTimeNanos() - enteredAt >= maxWait;
    }

    private void reopen(Snapshot cause) {
        breaker.transition(this, new OpenState(breaker, window, attempt + 1), cause);
    }
}
