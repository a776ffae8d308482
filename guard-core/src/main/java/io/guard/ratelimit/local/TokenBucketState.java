package io.guard.ratelimit.local;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;

/**
 * {@code token_bucket.lua} (GCRA) in memory: one theoretical arrival time. The arithmetic is the script's, in the
 * same order and in doubles, so both backends round alike.
 */
final class TokenBucketState implements LimitState {

    private double tat;

    @Override
    public Decision decide(RateLimitPolicy policy, long now, long permits) {
        double emission = (double) Micros.of(policy.interval()) / policy.rate();
        double tolerance = emission * policy.burst();
        double current = Math.max(tat, now);
        double candidate = current + permits * emission;
        boolean allowed = candidate - now <= tolerance + 0.5;
        long retry = 0;
        if (allowed) {
            current = candidate;
            tat = candidate;
        } else {
            retry = Math.max(1, (long) Math.ceil(candidate - now - tolerance - 0.5));
        }
        long remaining = Math.max(0, (long) Math.floor((tolerance - (current - now)) / emission + 1e-9));
        return Micros.decision(allowed, remaining, retry, (long) Math.ceil(current - now), policy.rate());
    }

    @Override
    public long expiresAtMicros() {
        return (long) Math.ceil(tat);
    }
}
