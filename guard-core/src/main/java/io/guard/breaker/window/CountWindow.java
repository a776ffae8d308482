package io.guard.breaker.window;

/**
 * The last {@code size} calls, in a ring: recording a call evicts the oldest one from the running totals and
 * overwrites its slot.
 */
public final class CountWindow implements SlidingWindow {

    private final int size;
    private final int minimumNumberOfCalls;
    private final byte[] kinds;
    private final long[] durations;
    private final Totals totals = new Totals();
    private int head;

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
    }

    @Override
    public synchronized Snapshot record(long durationNanos, boolean failed, boolean slow) {
        int kind = Totals.kind(failed, slow);
        if (totals.calls == size) {
            totals.remove(kinds[head], durations[head]);
        }
        kinds[head] = (byte) kind;
        durations[head] = durationNanos;
        totals.add(kind, durationNanos);
        head = head + 1 == size ? 0 : head + 1;
        return totals.snapshot(minimumNumberOfCalls);
    }

    @Override
    public synchronized Snapshot snapshot() {
        return totals.snapshot(minimumNumberOfCalls);
    }
}
