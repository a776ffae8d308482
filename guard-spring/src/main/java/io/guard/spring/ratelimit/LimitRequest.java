package io.guard.spring.ratelimit;

import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.method.LimitSpec;

/**
 * One limit's request of one call: the spec, the policy the call is decided under (the spec's, or its tier's), the
 * registered limit it is decided by (looked up once; null when none is registered under the policy's name), the
 * resolved key, the permits, and whether the limit only records (shadow mode, as configured or as an override has
 * set it when the call was evaluated), evaluated on the calling thread.
 *
 * <p>Internal: public only because Guard's {@code aop} package carries it between evaluation and decision; not an API.
 */
public record LimitRequest(LimitSpec spec, RateLimitPolicy policy, RateLimiterRegistry.Limit limit, String key,
                           long permits, boolean shadow) {
}
