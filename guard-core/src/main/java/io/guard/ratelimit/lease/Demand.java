package io.guard.ratelimit.lease;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The permits this instance was asked for on one key per period (a lease's lifetime): the current period's and the
 * last complete one's. Approximate under contention (a rotation may lose a few counts), which only changes the size of
 * the next lease, never what a lease may admit.
 */
final class Demand {

    private final long periodNanos;
    private final AtomicLong periodStart;
    private final AtomicLong current = new AtomicLong();
    private volatile long previous;

    Demand(long periodNanos, long nanoTime) {
        this.periodNanos = periodNanos;
        this.periodStart = new AtomicLong(nanoTime);
    }

    void record(long permits, long nanoTime) {
        long start = periodStart.get();
        long elapsed = nanoTime - start;
        if (elapsed >= periodNanos && periodStart.compareAndSet(start, nanoTime)) {
            long last = current.getAndSet(0);
            previous = elapsed >= 2 * periodNanos ? 0 : last; // a whole period without a call: cold
        }
        current.addAndGet(permits);
    }

    /** Permits per period lately: the larger of the last complete period and the current one. */
    long perPeriod() {
        return Math.max(previous, current.get());
    }
}
