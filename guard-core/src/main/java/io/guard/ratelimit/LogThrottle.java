package io.guard.ratelimit;

/**
 * Lets one log line through per period and counts the ones it holds back, so that a storm of failures (thousands
 * of decisions per second failing open) writes a bounded number of lines, each saying how many it stands for.
 */
final class LogThrottle {

    /** One line per limit (or per breaker) per this many milliseconds at most. */
    static final long PERIOD_MILLIS = 10_000;

    private long nextMillis = Long.MIN_VALUE;
    private long heldBack;

    /** -1 to stay quiet; else the lines held back since the last one let through (0 for the first). */
    synchronized long pass(long nowMillis) {
        if (nextMillis != Long.MIN_VALUE && nowMillis < nextMillis) {
            heldBack++;
            return -1;
        }
        nextMillis = nowMillis + PERIOD_MILLIS;
        long held = heldBack;
        heldBack = 0;
        return held;
    }

    /** " (N more in the last 10 s not logged)", or nothing for 0. */
    static String heldBack(long count) {
        return count == 0 ? "" : " (" + count + " more in the last " + PERIOD_MILLIS / 1000 + " s not logged)";
    }
}
