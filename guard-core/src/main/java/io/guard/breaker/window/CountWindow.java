package io.guard.breaker.window;

import java.util.Arrays;

/**
 * The last {@code size} calls, in a ring: recording a call evicts the oldest one from the running totals and
 * overwrites its slot, under the window's lock.
 *
 * <p>Why it scales: once the ring is full, a fast success can only lower the rates, so it is parked in the
 * calling thread's {@link Stripe} instead of taking the lock, and applied to the ring (in order, with its own
 * duration) by the next call that takes the lock: a failure, a slow call or a snapshot (which drain every
 * stripe), or the same thread when its stripe is full (which flushes only its own). Threads on different cores
 * then rarely share a written cache line on the healthy path.
 * Thresholds are still checked on exactly the calls that can cross them, against a window that includes
 * every parked success, so a single thread sees exactly the last {@code size} calls.
 */
public final class CountWindow implements SlidingWindow {

    /**
     * Successes a stripe holds before it flushes itself. Each flush writes ring slots the other threads wrote
     * last, so fewer, larger flushes move fewer cache lines per call; a flush of a whole ring or more rewrites
     * the ring once instead of slot by slot.
     */
    private static final int PARKED = 512;

    private final int size;
    private final int minimumNumberOfCalls;
    private final byte[] kinds;
    private final long[] durations;
    private final Totals totals = new Totals();
    private final Stripes<Parked> stripes;
    private int head;
    private volatile boolean full;

    /**
     * @param size                 calls kept; at least 1
     * @param minimumNumberOfCalls calls needed before rates are computed; capped at {@code size}, as a count
     *                             window can never hold more
     */
    public CountWindow(int size, int minimumNumberOfCalls) {
        if (size < 1) {
            throw new IllegalArgumentException("sliding-window-size must be at least 1 but was " + size);
        }
        this.size = size;
        this.minimumNumberOfCalls = Math.max(1, Math.min(minimumNumberOfCalls, size));
        this.kinds = new byte[size];
        this.durations = new long[size];
        this.stripes = new Stripes<>(() -> new Parked(PARKED));
    }

    @Override
    public Snapshot record(long durationNanos, boolean failed, boolean slow) {
        if (full && !failed && !slow) {
            Parked stripe = stripes.lockForCurrentThread();
            if (stripe != null) {
                try {
                    if (stripe.count == stripe.durations.length) {
                        flush(stripe);
                    }
                    stripe.durations[stripe.count++] = durationNanos;
                    return null;
                } finally {
                    stripe.unlock();
                }
            }
        }
        return recordLocked(durationNanos, Totals.kind(failed, slow));
    }

    /**
     * Applies one full stripe, held by the caller, and no other: draining every stripe here would pull the other
     * threads' hot cache lines across cores on the healthy path. The others are drained by the calls that need
     * an exact window (failures, slow calls, snapshots).
     */
    private synchronized void flush(Parked own) {
        unpark(own);
    }

    @Override
    public synchronized Snapshot snapshot() {
        stripes.drainEach(this::unpark);
        return totals.snapshot(minimumNumberOfCalls);
    }

    @Override
    public Snapshot withHungCalls(Snapshot snapshot, int hung) {
        return snapshot.withHungCalls(hung, size, minimumNumberOfCalls);
    }

    private synchronized Snapshot recordLocked(long durationNanos, int kind) {
        stripes.drainEach(this::unpark);
        add(kind, durationNanos);
        if (!full && totals.calls == size) {
            full = true;
        }
        return totals.snapshot(minimumNumberOfCalls);
    }

    private void unpark(Parked stripe) {
        int count = stripe.count;
        if (count >= size) {
            // Only the newest `size` successes can still be in the window: they replace the whole ring.
            totals.clear();
            Arrays.fill(kinds, (byte) 0);
            System.arraycopy(stripe.durations, count - size, durations, 0, size);
            for (int i = 0; i < size; i++) {
                totals.add(0, durations[i]);
            }
            head = 0;
        } else {
            for (int i = 0; i < count; i++) {
                add(0, stripe.durations[i]);
            }
        }
        stripe.count = 0;
    }

    private void add(int kind, long durationNanos) {
        if (totals.calls == size) {
            totals.remove(kinds[head], durations[head]);
        }
        kinds[head] = (byte) kind;
        durations[head] = durationNanos;
        totals.add(kind, durationNanos);
        head = head + 1 == size ? 0 : head + 1;
    }

    /** Fast successes of one stripe, oldest first. */
    private static final class Parked extends Stripe {
        final long[] durations;
        int count;

        Parked(int capacity) {
            durations = new long[capacity];
        }
    }
}
