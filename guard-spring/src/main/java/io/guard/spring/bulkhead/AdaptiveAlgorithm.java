package io.guard.spring.bulkhead;

import java.util.Locale;

/**
 * The algorithms of Netflix's concurrency-limits that an adaptive limit can run. Gradient2 is the default: it follows
 * the ratio of the long-term to the current latency and needs no timeout to be chosen; Vegas estimates the queue from
 * the lowest latency seen; AIMD adds one on each answer and backs off on a drop or a call slower than its timeout.
 */
public enum AdaptiveAlgorithm {

    GRADIENT2, VEGAS, AIMD;

    /** The name as written in properties and shown by the actuator: {@code gradient2}, {@code vegas}, {@code aimd}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
