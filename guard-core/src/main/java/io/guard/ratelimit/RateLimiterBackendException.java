package io.guard.ratelimit;

import io.guard.refusal.Refusal;
import io.guard.refusal.RefusalKind;

/**
 * The rate-limit backend could not decide (Redis unreachable, timed out, or answered with an error). Failure
 * policies ({@link BackendFailurePolicy}) turn it into an allow, a 503 or a local decision.
 */
public class RateLimiterBackendException extends RuntimeException implements Refusal {

    private static final long serialVersionUID = 1L;

    public RateLimiterBackendException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public RefusalKind refusalKind() {
        return RefusalKind.BACKEND_UNAVAILABLE;
    }

    /** Null: a backend failure is not one limit's. */
    @Override
    public String refusedBy() {
        return null;
    }
}
