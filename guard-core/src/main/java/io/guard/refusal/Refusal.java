package io.guard.refusal;

import java.time.Duration;
import java.util.Optional;

/**
 * Implemented by every exception with which Guard refuses a call, so that HTTP answers, fallbacks and breakers can
 * treat refusals alike without listing their classes: one table maps a {@link RefusalKind} to its answer.
 */
public interface Refusal {

    /** What refused the call. */
    RefusalKind refusalKind();

    /**
     * How long until the same call may be let in (an HTTP {@code Retry-After}); empty, the default, when that is not
     * known (a full bulkhead, a backend failure) or when waiting would not help (the caller's mistakes).
     */
    default Optional<Duration> retryAfterHint() {
        return Optional.empty();
    }

    /** The name of the limit, breaker or bulkhead that refused; null when no single one did (a backend failure). */
    String refusedBy();
}
