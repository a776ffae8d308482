package io.guard.spring.ratelimit;

import io.guard.refusal.Refusal;
import io.guard.refusal.RefusalKind;

/**
 * A call asked a limit for a number of permits it can never grant: the {@code permits} expression yielded null,
 * less than 1, or more than the limit's rate (burst for TOKEN_BUCKET). Such a request is the caller's mistake, often
 * from user input ({@code permits = "#order.quantity"}), and waiting would not help, so it is answered with HTTP 400
 * rather than 429, and never reaches the backend. An {@link IllegalArgumentException}, which is what it is.
 */
public class InvalidPermitsException extends IllegalArgumentException implements Refusal {

    private static final long serialVersionUID = 1L;

    private final String policyName;

    public InvalidPermitsException(String policyName, String message) {
        super(message);
        this.policyName = policyName;
    }

    /** The limit that was asked. */
    public String policyName() {
        return policyName;
    }

    @Override
    public RefusalKind refusalKind() {
        return RefusalKind.PERMITS_INVALID;
    }

    /** The {@link #policyName()}. */
    @Override
    public String refusedBy() {
        return policyName;
    }
}
