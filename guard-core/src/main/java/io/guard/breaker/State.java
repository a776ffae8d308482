package io.guard.breaker;

/**
 * The states of a {@link CircuitBreaker}, named as Resilience4j names them so settings and dashboards carry over.
 */
public enum State {
    /** Calls flow; outcomes are recorded; crossing a threshold opens the breaker. */
    CLOSED(true),
    /** Calls are refused until the wait duration has passed. */
    OPEN(false),
    /** A limited number of trial calls decide between CLOSED and OPEN. */
    HALF_OPEN(true),
    /** Calls flow and nothing is recorded. Left only by a manual transition. */
    DISABLED(true),
    /** Calls are refused until a manual transition. */
    FORCED_OPEN(false),
    /** Calls flow and are recorded, but the breaker never opens. Left only by a manual transition. */
    METRICS_ONLY(true);

    private final boolean allowsCalls;

    State(boolean allowsCalls) {
        this.allowsCalls = allowsCalls;
    }

    /** Whether this state lets calls through in general (HALF_OPEN only up to its permitted number). */
    public boolean allowsCalls() {
        return allowsCalls;
    }
}
