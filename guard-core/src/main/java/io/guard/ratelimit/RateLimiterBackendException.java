package io.guard.ratelimit;

/**
 * The rate-limit backend could not decide (Redis unreachable, timed out, or answered with an error). Failure
 * policies ({@link BackendFailurePolicy}) turn it into an allow, a 503 or a local decision.
 */
public class RateLimiterBackendException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RateLimiterBackendException(String message, Throwable cause) {
        super(message, cause);
    }
}
