package io.guard.breaker;

import io.guard.breaker.window.SlidingWindow;
import io.guard.breaker.window.Snapshot;

/**
 * Refuses calls until its wait is over; then the next call (or the scheduler, with automatic transition) moves
 * the breaker to HALF_OPEN. Keeps showing the window that made it open. {@code attempt} counts consecutive
 * openings since the breaker was last CLOSED and drives the exponential backoff of the wait.
 */
final class OpenState implements BreakerState {

    private final DefaultCircuitBreaker breaker;
    private final SlidingWindow window;
    private final long windowSince;
    private final int attempt;
    private final long openedAt;
    private final long waitNanos;
    private volatile Runnable cancelTimer;

    /**
     * Waits as configured for the {@code attempt}-th consecutive opening (backed off, randomized, or custom), showing
     * the window of {@code from} (null: an empty one).
     */
    OpenState(DefaultCircuitBreaker breaker, BreakerState from, int attempt) {
        this(breaker, from, attempt, breaker.config().waitDurationInOpenState(attempt).toNanos());
    }

    /** Waits {@code waitNanos}, e.g. for transitionToOpenStateFor or a transition-on-result check. */
    OpenState(DefaultCircuitBreaker breaker, BreakerState from, int attempt, long waitNanos) {
        this.breaker = breaker;
        boolean keeps = from != null && from.window() != null;
        this.window = keeps ? from.window() : breaker.newWindow();
        this.windowSince = keeps ? from.windowSince() : Long.MAX_VALUE;
        this.attempt = attempt;
        this.openedAt = breaker.currentTimeNanos();
        this.waitNanos = Math.max(0, waitNanos);
    }

    @Override
    public State state() {
        return State.OPEN;
    }

    @Override
    public BreakerState acquire() {
        if (remainingOpenNanos() > 0) {
            return null;
        }
        toHalfOpen();
        return breaker.currentState().acquire();
    }

    @Override
    public void release() {
    }

    /** Calls admitted before the breaker opened still finish; they are counted but decide nothing. */
    @Override
    public void record(long durationNanos, boolean failed) {
        window.record(durationNanos, failed, breaker.isSlow(durationNanos));
    }

    /** The window that made it open, with its calls still hanging, so that readers see why it opened. */
    @Override
    public Snapshot snapshot() {
        return window.withHungCalls(window.snapshot(), breaker.hungSince(windowSince));
    }

    @Override
    public SlidingWindow window() {
        return window;
    }

    @Override
    public long windowSince() {
        return windowSince;
    }

    int attempt() {
        return attempt;
    }

    @Override
    public void refresh() {
        if (breaker.config().automaticTransitionFromOpenToHalfOpenEnabled() && remainingOpenNanos() == 0) {
            toHalfOpen();
        }
    }

    @Override
    public long remainingOpenNanos() {
        return Math.max(0, waitNanos - (breaker.currentTimeNanos() - openedAt));
    }

    @Override
    public void onEnter() {
        if (breaker.config().automaticTransitionFromOpenToHalfOpenEnabled()) {
            cancelTimer = breaker.schedule(waitNanos, this::toHalfOpen);
        }
    }

    @Override
    public void onExit() {
        Runnable cancel = cancelTimer;
        if (cancel != null) {
            cancel.run();
        }
    }

    private void toHalfOpen() {
        breaker.transition(this, new HalfOpenState(breaker, attempt), null);
    }
}
