package io.guard.breaker.window;

import java.time.Duration;

/**
 * Running sums over the calls in a window, kept by subtract-on-evict so a snapshot never walks the window.
 * Not thread-safe: each window guards its totals.
 */
final class Totals {

    static final int FAILED = 1;
    static final int SLOW = 2;

    int calls;
    int failed;
    int slow;
    int slowFailed;
    long nanos;

    static int kind(boolean failed, boolean slow) {
        return (failed ? FAILED : 0) | (slow ? SLOW : 0);
    }

    void add(int kind, long durationNanos) {
        add(1, kind, durationNanos);
    }

    void remove(int kind, long durationNanos) {
        add(-1, kind, -durationNanos);
    }

    void clear() {
        calls = 0;
        failed = 0;
        slow = 0;
        slowFailed = 0;
        nanos = 0;
    }

    /** Adds {@code count} calls of one kind that took {@code durationNanos} together (both negative to evict). */
    void add(int count, int kind, long durationNanos) {
        calls += count;
        if ((kind & FAILED) != 0) {
            failed += count;
        }
        if ((kind & SLOW) != 0) {
            slow += count;
            if ((kind & FAILED) != 0) {
                slowFailed += count;
            }
        }
        nanos += durationNanos;
    }

    Snapshot snapshot(int minimumNumberOfCalls) {
        boolean enough = calls >= minimumNumberOfCalls && calls > 0;
        float failureRate = enough ? failed * 100f / calls : -1f;
        float slowCallRate = enough ? slow * 100f / calls : -1f;
        Duration average = calls == 0 ? Duration.ZERO : Duration.ofNanos(nanos / calls);
        return new Snapshot(calls, failed, slow, slowFailed, failureRate, slowCallRate, average);
    }
}
