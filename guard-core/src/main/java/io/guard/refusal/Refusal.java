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
     * How long until the same call may be let in (an HTTP {@code Retry-After}); empty when that is not known or
     * when waiting would not help.
     */
    Optional<Duration> retryAfterHint();

    /** The name of the limit, breaker or bulkhead that refused; null when no single one did (a backend failure). */
    String refusedBy();
}
