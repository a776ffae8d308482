package io.guard.breaker.window;

import io.guard.time.GuardClock;

import java.util.Objects;

/**
 * The calls of the last {@code size} seconds, in one bucket per second: moving to a new second evicts the
 * buckets that fell out of the window from the running totals. Seconds are counted on the clock's monotonic
 * timeline, so a wall-clock correction never empties or stretches the window.
 *
 * <p>Like {@link CountWindow}, fast successes skip the lock when they cannot raise a rate: within a second in
 * which the window already held minimum-number-of-calls (eviction only happens when the second changes), they
 * are summed per thread stripe and folded into their second's bucket by the next call that takes the lock.
 */
public final class TimeWindow implements SlidingWindow {

    private static final long SECOND = 1_000_000_000L;
    private static final long NONE = Long.MIN_VALUE;

    private final int size;
    private final int minimumNumberOfCalls;
    private final GuardClock clock;
    private final Totals[] buckets;
    private final Totals totals = new Totals();
    private final Stripes<Parked> stripes = new Stripes<>(Parked::new);
    private long currentSecond;
    private volatile long parkableSecond = NONE;

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
    public Snapshot record(long durationNanos, boolean failed, boolean slow) {
        long second = second(clock.nanoTime());
        if (second == parkableSecond && !failed && !slow) {
            Parked stripe = stripes.lockForCurrentThread();
            if (stripe != null) {
                boolean parked = stripe.calls == 0 || stripe.second == second;
                if (parked) {
                    stripe.second = second;
                    stripe.calls++;
                    stripe.nanos += durationNanos;
                }
                stripe.unlock();
                if (parked) {
                    return null;
                }
            }
        }
        return recordLocked(second, durationNanos, Totals.kind(failed, slow));
    }

    @Override
    public synchronized Snapshot snapshot() {
        moveTo(second(clock.nanoTime()));
        stripes.drainEach(this::unpark);
        return snapshotLocked();
    }

    @Override
    public Snapshot withHungCalls(Snapshot snapshot, int hung) {
        return snapshot.withHungCalls(hung, Integer.MAX_VALUE, minimumNumberOfCalls);
    }

    private synchronized Snapshot recordLocked(long second, long durationNanos, int kind) {
        Totals bucket = moveTo(second);
        stripes.drainEach(this::unpark);
        bucket.add(kind, durationNanos);
        totals.add(kind, durationNanos);
        return snapshotLocked();
    }

    private Snapshot snapshotLocked() {
        parkableSecond = totals.calls >= minimumNumberOfCalls ? currentSecond : NONE;
        return totals.snapshot(minimumNumberOfCalls);
    }

    /** Folds a stripe's successes into their second's bucket, or drops them if that second has left the window. */
    private void unpark(Parked stripe) {
        if (stripe.calls > 0 && stripe.second > currentSecond - size && stripe.second <= currentSecond) {
            buckets[index(stripe.second)].add(stripe.calls, 0, stripe.nanos);
            totals.add(stripe.calls, 0, stripe.nanos);
        }
        stripe.calls = 0;
        stripe.nanos = 0;
    }

    /** Evicts the seconds that left the window and returns the bucket of the current second. */
    private Totals moveTo(long second) {
        if (second > currentSecond) {
            long first = Math.max(currentSecond + 1, second - size + 1);
            for (long s = first; s <= second; s++) {
                evict(buckets[index(s)]);
            }
            currentSecond = second;
        }
        return buckets[index(currentSecond)];
    }

    private void evict(Totals expired) {
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

    /** Fast successes of one stripe, all in one second. */
    private static final class Parked extends Stripe {
        long second;
        int calls;
        long nanos;
    }
}
