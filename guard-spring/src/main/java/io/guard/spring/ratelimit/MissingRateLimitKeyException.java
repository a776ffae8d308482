package io.guard.spring.ratelimit;

import io.guard.refusal.Refusal;
import io.guard.refusal.RefusalKind;

/**
 * A limit's key expression yielded null or an empty string and {@code guard.rate-limit.missing-key} is
 * {@code reject}: the call cannot be attributed to anyone, so it is refused (HTTP 400) instead of silently sharing
 * one quota with every other anonymous caller.
 */
public class MissingRateLimitKeyException extends RuntimeException implements Refusal {

    private static final long serialVersionUID = 1L;

    private final String policyName;

    public MissingRateLimitKeyException(String policyName, String message) {
        super(message, null, false, false);
        this.policyName = policyName;
    }

    /** The limit whose key is missing. */
    public String policyName() {
        return policyName;
    }

    @Override
    public RefusalKind refusalKind() {
        return RefusalKind.KEY_MISSING;
    }

    /** The {@link #policyName()}. */
    @Override
    public String refusedBy() {
        return policyName;
    }
}
