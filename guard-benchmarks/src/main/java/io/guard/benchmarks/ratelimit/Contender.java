package io.guard.benchmarks.ratelimit;

import java.util.List;

/** One rate limiter under test: decides a request for one permit on one of the benchmark's keys. */
interface Contender {

    /** The name in the results table. */
    String name();

    /** Prepares the limit for key {@code index} (e.g. Redisson's {@code trySetRate}); not timed. */
    default void prepare(int index) {
    }

    /** Takes one permit for key {@code index}; true when allowed. */
    boolean tryAcquire(int index);

    /** Redis KEYS patterns that together match every key this contender wrote for key {@code index}, no other. */
    List<String> keyPatterns(int index);
}
