package io.guard.ratelimit;

/**
 * How a limit counts. Each algorithm is one Lua script on Redis and the same logic in process.
 */
public enum Algorithm {
    /** Never more than {@code rate} permits in any window of length {@code interval}; memory grows with the rate. */
    SLIDING_LOG,
    /** GCRA: long-run rate {@code rate/interval}, bursts up to {@code burst}; O(1) memory per key. */
    TOKEN_BUCKET,
    /** At most {@code rate} per aligned window, so up to twice that across a boundary; the cheapest. */
    FIXED_WINDOW
}
