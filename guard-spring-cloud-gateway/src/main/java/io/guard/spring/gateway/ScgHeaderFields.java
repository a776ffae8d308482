package io.guard.spring.gateway;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;

import java.util.Map;

/**
 * The header fields Spring Cloud Gateway's {@code RedisRateLimiter} sends, for clients written against it: a route
 * opts in with {@code guard.scg-headers: true}, and gets them beside the IETF fields. Their values in Guard's terms:
 * the remaining permits ({@code -1} when nothing was counted, as {@code RedisRateLimiter} answers while Redis is
 * down), the limit's rate (per its interval: per second once migrated as {@code docs/gateway.md} maps
 * {@code replenishRate}), the most permits one request may take (the burst of a bucket, else the rate) and the
 * route's permits per request.
 */
final class ScgHeaderFields {

    static final String REMAINING = "X-RateLimit-Remaining";
    static final String REPLENISH_RATE = "X-RateLimit-Replenish-Rate";
    static final String BURST_CAPACITY = "X-RateLimit-Burst-Capacity";
    static final String REQUESTED_TOKENS = "X-RateLimit-Requested-Tokens";

    private ScgHeaderFields() {
    }

    /** The four fields of one limit's decision for a request that asked for {@code permits}, into {@code fields}. */
    static void put(Map<String, String> fields, RateLimitPolicy policy, Decision decision, long permits) {
        fields.put(REMAINING, Long.toString(decision.counted() ? decision.remaining() : -1));
        fields.put(REPLENISH_RATE, Long.toString(policy.rate()));
        fields.put(BURST_CAPACITY, Long.toString(policy.maxPermits()));
        fields.put(REQUESTED_TOKENS, Long.toString(permits));
    }
}
