package io.guard.spring.ratelimit;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;

/**
 * Receives every decision the rate-limit aspect takes for one call, allowed or not, so that the HTTP layer can send
 * the {@code RateLimit-Policy} and {@code RateLimit} header fields on successful answers too. May be called from
 * any thread (asynchronous limits complete elsewhere).
 *
 * <p>Reactive callers put their sink in the Reactor context under {@code RateLimitDecisionSink.class}.
 */
@FunctionalInterface
public interface RateLimitDecisionSink {

    /** A sink that drops everything: outside of a web request. */
    RateLimitDecisionSink NONE = (policy, decision) -> { };

    void record(RateLimitPolicy policy, Decision decision);

    /**
     * A limit in shadow mode would have refused the call, which went on (its decision sets no header field). For
     * observations; ignored by default.
     */
    default void shadowRefusal(RateLimitPolicy policy, Decision decision) {
    }

    /**
     * The backend could not decide and the limit's {@code on-backend-failure} policy answered with {@code decision}
     * ({@link Decision#backendFailure()} says why), whether or not the limit sends header fields. For observations;
     * ignored by default.
     */
    default void failedOver(RateLimitPolicy policy, Decision decision) {
    }
}
