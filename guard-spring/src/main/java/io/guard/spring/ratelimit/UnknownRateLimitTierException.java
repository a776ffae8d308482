package io.guard.spring.ratelimit;

/**
 * A call's tier expression answered a tier that the limit does not configure (or nothing), and the limit has no
 * {@code default-tier}. A programming or configuration error, not the caller's fault: over HTTP it is a 500. The
 * message names the limit, the method, the expression and the value (a plan name, never the limit's key).
 */
public class UnknownRateLimitTierException extends IllegalStateException {

    private final String limitName;

    public UnknownRateLimitTierException(String limitName, String message) {
        super(message);
        this.limitName = limitName;
    }

    /** The name of the limit whose tier could not be resolved. */
    public String limitName() {
        return limitName;
    }
}
