package io.guard.breaker;

import io.guard.breaker.window.CountWindow;
import io.guard.breaker.window.SlidingWindow;
import io.guard.breaker.window.Snapshot;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admits {@code permitted-number-of-calls-in-half-open-state} trial calls; once that many outcomes are in, the
 * breaker closes or opens again. A permission given back (ignored error, cancelled call) is admitted again, so
 * the state cannot wait forever for a trial that never reports; trials hanging past the slow-call threshold count
 * as slow trials; max-wait-duration-in-half-open-state (then transition-to-state-after-wait-duration) is the
 * safety net for callers of the handle-less permission API that never answer.
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
            waitedTooLong();
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
        if (snapshot != null) {
            decide(window.withHungCalls(snapshot, breaker.hungSince(enteredAt)));
        }
    }

    /** Trial calls hanging past the slow-call threshold count as slow trials, so hung trials cannot stall HALF_OPEN. */
    @Override
    public void checkHung() {
        int hung = breaker.hungSince(enteredAt);
        if (hung > 0) {
            decide(window.withHungCalls(window.snapshot(), hung));
        }
    }

    private void decide(Snapshot snapshot) {
        if (snapshot.calls() < permitted) {
            return;
        }
        if (breaker.exceeds(snapshot)) {
            reopen();
        } else {
            breaker.transition(this, new ClosedState(breaker), null);
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
            waitedTooLong();
        }
    }

    @Override
    public void onEnter() {
        long maxWait = breaker.config().maxWaitDurationInHalfOpenState().toNanos();
        if (maxWait > 0) {
            cancelTimer = breaker.schedule(maxWait, this::waitedTooLong);
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

    /** max-wait-duration-in-half-open-state passed: transition-to-state-after-wait-duration decides where to go. */
    private void waitedTooLong() {
        if (breaker.config().transitionToStateAfterWaitDuration() == State.CLOSED) {
            breaker.transition(this, new ClosedState(breaker), null);
        } else {
            reopen();
        }
    }

    /**
     * Back to OPEN, published as a state transition only: as in Resilience4j, FAILURE_RATE_EXCEEDED and
     * SLOW_CALL_RATE_EXCEEDED are events of CLOSED (and METRICS_ONLY), where a rate crosses its threshold.
     */
    private void reopen() {
        breaker.transition(this, new OpenState(breaker, this, attempt + 1), null);
    }
}
