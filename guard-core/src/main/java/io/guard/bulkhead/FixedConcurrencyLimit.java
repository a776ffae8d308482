package io.guard.bulkhead;

/** The bound of {@code @CircuitBreaker(maxConcurrentCalls = n)}: it never moves, so samples are dropped unread. */
record FixedConcurrencyLimit(int limit) implements ConcurrencyLimit {

    @Override
    public void onSample(long startNanos, long rttNanos, int inflight, boolean dropped) {
        // a fixed bound learns nothing
    }
}
