package io.guard.refusal;

/**
 * The kinds of refusal Guard throws. Adding one means a constant here, its exception class implementing
 * {@link Refusal}, and its row in the HTTP answer table (guard-spring's {@code RefusalAnswers}); nothing else lists them.
 */
public enum RefusalKind {

    /** A rate limit has no permits left: waiting helps. */
    RATE_LIMITED(false),
    /** A circuit breaker admits no calls (OPEN, FORCED_OPEN, a full HALF_OPEN). */
    CIRCUIT_OPEN(true),
    /** A bulkhead has as many calls running as it allows. */
    BULKHEAD_FULL(true),
    /** A rate limit's backend could not decide and the limit fails closed. */
    BACKEND_UNAVAILABLE(true),
    /** A rate limit's key expression yielded nothing and missing keys are rejected: the caller's mistake. */
    KEY_MISSING(false),
    /** A call asked a rate limit for permits it can never grant: the caller's mistake. */
    PERMITS_INVALID(false);

    private final boolean breakerOutcome;

    RefusalKind(boolean breakerOutcome) {
        this.breakerOutcome = breakerOutcome;
    }

    /**
     * Whether a circuit breaker around the refused call records the refusal as the call's outcome. A limit refusing
     * before the method runs says nothing about the protected service, so the breaker hands the permit back instead.
     */
    public boolean breakerOutcome() {
        return breakerOutcome;
    }
}
