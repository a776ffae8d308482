package io.guard.spring.ratelimit;

import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimitRequest;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.method.LimitSpec;

/**
 * One limit's request of one call: the spec, the core request (the policy the call is decided under, the spec's or
 * its tier's; the resolved key; the permits), the registered limit it is decided by (looked up once; null when none
 * is registered under the policy's name), and whether the limit only records (shadow mode, as configured or as an
 * override has set it when the call was evaluated), evaluated on the calling thread. A group of limits is decided
 * with the core requests as they are.
 *
 * <p>Internal: public only because Guard's {@code aop} package carries it between evaluation and decision; not an API.
 */
public record LimitRequest(LimitSpec spec, RateLimitRequest request, RateLimiterRegistry.Limit limit,
                           boolean shadow) {

    /** The policy the call is decided under. */
    public RateLimitPolicy policy() {
        return request.policy();
    }

    /** The resolved key. */
    public String key() {
        return request.key();
    }

    /** The permits the call takes. */
    public long permits() {
        return request.permits();
    }
}
