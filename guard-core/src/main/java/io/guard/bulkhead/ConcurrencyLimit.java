package io.guard.bulkhead;

/**
 * How many calls a {@link Bulkhead} lets run at once, and what it learns from each call that ends. A fixed bound
 * learns nothing; an adaptive one moves with the latency and the drops it sees. The core names no algorithm: Guard's
 * Spring support plugs Netflix's concurrency-limits algorithms (Gradient2, Vegas, AIMD) in through this interface, so
 * that guard-core stays free of that library and one bulkhead type counts, refuses, meters and answers for both.
 *
 * <p>The shape is that of Netflix's {@code Limit}: a sample is one admitted call that ended with an outcome worth
 * learning from (it answered, or it was dropped: timed out); calls whose outcome says nothing about the downstream
 * give no sample.
 */
public interface ConcurrencyLimit {

    /** Calls allowed at once now; at least 1. */
    int limit();

    /**
     * One admitted call ended.
     *
     * @param startNanos when it was admitted, on the bulkhead's clock ({@link io.guard.time.GuardClock#nanoTime()})
     * @param rttNanos   how long it ran
     * @param inflight   calls running when it was admitted, itself included
     * @param dropped    whether it was dropped (timed out) rather than answered
     */
    void onSample(long startNanos, long rttNanos, int inflight, boolean dropped);

    /** What moves the limit, as the actuator shows it: {@code fixed}, or the adaptive algorithm's name. */
    default String algorithm() {
        return "fixed";
    }

    /** A bound that never moves. */
    static ConcurrencyLimit fixed(int maxConcurrentCalls) {
        if (maxConcurrentCalls < 1) {
            throw new IllegalArgumentException("max-concurrent-calls must be at least 1 but was " + maxConcurrentCalls);
        }
        return new FixedConcurrencyLimit(maxConcurrentCalls);
    }
}
