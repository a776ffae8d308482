package io.guard.breaker.window;

import java.time.Duration;

/**
 * What a sliding window holds at one instant: the aggregates a breaker decides on, read in O(1).
 *
 * @param calls            calls in the window
 * @param failedCalls      calls recorded as failures
 * @param slowCalls        calls slower than the slow-call threshold (failed or not)
 * @param slowFailedCalls  slow calls that also failed
 * @param failureRate      percentage of failed calls, or -1 while fewer than minimum-number-of-calls were made
 * @param slowCallRate     percentage of slow calls, or -1 while fewer than minimum-number-of-calls were made
 * @param averageDuration  mean duration of the calls in the window ({@link Duration#ZERO} when empty)
 */
public record Snapshot(int calls, int failedCalls, int slowCalls, int slowFailedCalls,
                       float failureRate, float slowCallRate, Duration averageDuration) {

    /**
     * This window with {@code hung} calls that are still running past the slow-call threshold counted as slow
     * calls (neither failed nor successful yet). They are the newest calls, so in a window of at most
     * {@code capacity} calls they push out the oldest: the finished calls' counts are scaled down to the room
     * left, which lets a window full of old successes reach a slow-call rate of 100% when everything hangs.
     *
     * @param capacity             the most calls the window holds (a count window's size), else
     *                             {@link Integer#MAX_VALUE}
     * @param minimumNumberOfCalls calls needed before rates are computed
     */
    public Snapshot withHungCalls(int hung, int capacity, int minimumNumberOfCalls) {
        if (hung <= 0) {
            return this;
        }
        int running = Math.min(hung, capacity);
        int room = capacity - running;
        double keep = calls <= room ? 1.0 : (double) room / calls;
        int total = (int) Math.min(Integer.MAX_VALUE, (long) Math.round(calls * keep) + running);
        int failed = (int) Math.round(failedCalls * keep);
        int slow = (int) Math.round(slowCalls * keep) + running;
        int slowFailed = (int) Math.round(slowFailedCalls * keep);
        boolean enough = total >= minimumNumberOfCalls && total > 0;
        return new Snapshot(total, failed, slow, slowFailed, enough ? failed * 100f / total : -1f,
                enough ? slow * 100f / total : -1f, averageDuration);
    }

    /** Calls that succeeded. */
    public int successfulCalls() {
        return calls - failedCalls;
    }
}
