package io.guard.spring.ratelimit;

/**
 * Finds the sink of the call on the current thread, such as the current servlet request's. Several may be
 * registered (one per web stack); the first that knows a sink wins.
 */
@FunctionalInterface
public interface RateLimitDecisionSinks {

    /** The current call's sink, or {@link RateLimitDecisionSink#NONE}. */
    RateLimitDecisionSink current();
}
