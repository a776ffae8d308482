package io.guard.breaker;

import io.guard.breaker.window.SlidingWindow;
import io.guard.breaker.window.Snapshot;

import java.time.Duration;

/**
 * One state of a breaker, as an immutable-identity object: the breaker swaps whole state objects by CAS, so a
 * transition "from this state" can succeed at most once, however many threads see a threshold crossed.
 */
sealed interface BreakerState
        permits ClosedState, OpenState, HalfOpenState, DisabledState, ForcedOpenState, MetricsOnlyState {

    Snapshot EMPTY = new Snapshot(0, 0, 0, 0, -1f, -1f, Duration.ZERO);

    State state();

    /**
     * Asks for a permission; may move the breaker on (an OPEN whose wait is over). Returns the state that granted
     * it, so that a permission given back later returns to that state and not to a successor, or {@code null}.
     */
    BreakerState acquire();

    /** Gives back a permission whose call reported no outcome. */
    void release();

    /** Records a finished call. */
    void record(long durationNanos, boolean failed);

    Snapshot snapshot();

    /** The window a following OPEN state keeps showing, or null when this state records nothing. */
    default SlidingWindow window() {
        return null;
    }

    /**
     * When the calls of {@link #window()} began to be admitted: calls admitted since then and still running past
     * the slow-call threshold count in it as slow calls. {@link Long#MAX_VALUE} when this state records nothing.
     */
    default long windowSince() {
        return Long.MAX_VALUE;
    }

    /**
     * Counts the calls admitted in this state and still running past slow-call-duration-threshold as slow calls
     * and acts on the result as on a recorded call; called once per tracking generation, before a call is granted
     * or the state is read, which is how a breaker whose calls all hang still opens, before the next call.
     */
    default void checkHung() {
    }

    /** Applies timed transitions that are due, for readers that do not call. */
    default void refresh() {
    }

    default long remainingOpenNanos() {
        return 0;
    }

    /** Called once after this state became current; schedules its timers. */
    default void onEnter() {
    }

    /** Called once after this state stopped being current; cancels its timers. */
    default void onExit() {
    }
}
