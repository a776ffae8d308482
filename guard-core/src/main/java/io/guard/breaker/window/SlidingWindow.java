package io.guard.breaker.window;

/**
 * The recent outcomes a breaker decides on, pre-aggregated so that reading them is O(1) whatever the window size.
 *
 * <p>{@link #record} returns a snapshot only when the call could have raised a rate, because that is the only
 * time thresholds must be checked: a fast success in a window that already holds enough calls can only lower the
 * failure and slow-call rates. Returning {@code null} then lets an implementation keep such successes off any
 * shared state (see {@link CountWindow}).
 */
public interface SlidingWindow {

    /**
     * Records one call.
     *
     * @param durationNanos how long the call took
     * @param failed        whether the call counts as a failure
     * @param slow          whether the call took longer than the slow-call threshold
     * @return the window including this call when thresholds must be checked, else {@code null}
     */
    Snapshot record(long durationNanos, boolean failed, boolean slow);

    /** The window now, including every call recorded before this method was called. */
    Snapshot snapshot();

    /** {@code snapshot} of this window with {@code hung} running calls counted as slow calls; see {@link Snapshot#withHungCalls}. */
    Snapshot withHungCalls(Snapshot snapshot, int hung);
}
