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

    /** Calls that succeeded. */
    public int successfulCalls() {
        return calls - failedCalls;
    }
}
