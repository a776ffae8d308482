package io.guard.breaker.window;

import io.guard.time.GuardClock;

import java.util.Objects;

/**
 * The calls of the last {@code size} seconds, in one bucket per second: moving to a new second evicts the
 * buckets that fell out of the window from the running totals. Seconds are counted on the clock's monotonic
 * timeline, so a wall-clock correction never empties or stretches the window.
 */
public final class TimeWindow implements SlidingWindow {

    private static final long SECOND = 1_000_000_000L;

    private final int size;
    private final int minimumNumberOfCalls;
    private final GuardClock clock;
    private final Totals[] buckets;
    private final Totals totals = new Totals();
    private long currentSecond;

    /**
     * @param size                 seconds kept; at least 1
     * @param minimumNumberOfCalls calls needed before rates are computed
     * @param clock                the clock whose seconds delimit the buckets
     */
    public TimeWindow(int size, int minimumNumberOfCalls, GuardClock clock) {
        if (size < 1) {
            throw new IllegalArgumentException("sliding-window-size must be at least 1 but was " + size);
        }
        this.size = size;
        this.minimumNumberOfCalls = Math.max(1, minimumNumberOfCalls);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.buckets = new Totals[size];
        for (int i = 0; i < size; i++) {
            buckets[i] = new Totals();
        }
        this.currentSecond = second(clock.nanoTime());
    }

    @Override
    public synchronized Snapshot record(long durationNanos, boolean failed, boolean slow) {
        Totals bucket = moveTo(second(clock.nanoTime()));
        int kind = Totals.kind(failed, slow);
        bucket.add(kind, durationNanos);
        totals.add(kind, durationNanos);
        return totals.snapshot(minimumNumberOfCalls);
    }

    @Override
    public synchronized Snapshot snapshot() {
        moveTo(second(clock.nanoTime()));
        return totals.snapshot(minimumNumberOfCalls);
    }

    /** Evicts the seconds that left the window and returns the bucket of {@code second}. */
    private Totals moveTo(long second) {
        if (second > currentSecond) {
            long first = Math.max(currentSecond + 1, second - size + 1);
            for (long s = first; s <= second; s++) {
                Totals expired = buckets[index(s)];
                subtract(expired);
            }
            currentSecond = second;
        }
        return buckets[index(currentSecond)];
    }

    private void subtract(Totals expired) {
        totals.calls -= expired.calls;
        totals.failed -= expired.failed;
        totals.slow -= expired.slow;
        totals.slowFailed -= expired.slowFailed;
        totals.nanos -= expired.nanos;
        expired.calls = 0;
        expired.failed = 0;
        expired.slow = 0;
        expired.slowFailed = 0;
        expired.nanos = 0;
    }

    private int index(long second) {
        return (int) Math.floorMod(second, (long) size);
    }

    private static long second(long nanos) {
        return Math.floorDiv(nanos, SECOND);
    }
}
