package io.guard.ratelimit;

import java.util.Objects;

/**
 * One limit's part of a call decided with others all-or-nothing ({@link RateLimiter#decideAll}): the policy, the
 * resolved key and the permits, checked by the caller.
 */
public record RateLimitRequest(RateLimitPolicy policy, String key, long permits) {

    public RateLimitRequest {
        Objects.requireNonNull(policy, "policy");
    }
}
