package io.guard.ratelimit.local;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.EmissionInterval;
import io.guard.ratelimit.RateLimitPolicy;

/**
 * {@code token_bucket.lua} (GCRA) in memory, step for step: the theoretical arrival time is a whole microsecond plus
 * a remainder in {@code 1/parts} of a microsecond ({@link EmissionInterval}), so no rate is ever rounded. The policy
 * bounds keep every intermediate value below 2^53, where the script's doubles are exact too.
 */
final class TokenBucketState implements LimitState {

    private long whole;
    private long fraction;
    private long parts = 1;

    @Override
    public Decision decide(RateLimitPolicy policy, long now, long permits, boolean spend) {
        EmissionInterval emission = EmissionInterval.of(policy);
        long per = emission.parts();
        long tatWhole = whole;
        long tatFraction = fraction;
        if (tatFraction > 0 && parts != per) {
            // Counted in another rate's steps: round up to the next microsecond, never early.
            tatWhole++;
            tatFraction = 0;
        }
        if (tatWhole < now) {
            tatWhole = now;
            tatFraction = 0;
        }
        long candidateWhole = tatWhole + Math.multiplyExact(permits, emission.micros()) / per;
        long candidateFraction = tatFraction + Math.multiplyExact(permits, emission.micros()) % per;
        if (candidateFraction >= per) {
            candidateWhole++;
            candidateFraction -= per;
        }
        long toleranceWhole = Math.multiplyExact(policy.burst(), emission.micros()) / per;
        long toleranceFraction = Math.multiplyExact(policy.burst(), emission.micros()) % per;
        long ahead = candidateWhole - now;
        boolean allowed = ahead < toleranceWhole || (ahead == toleranceWhole && candidateFraction <= toleranceFraction);
        long retry = 0;
        if (allowed && spend) {
            tatWhole = candidateWhole;
            tatFraction = candidateFraction;
            whole = tatWhole;
            fraction = tatFraction;
            parts = per;
        } else if (!allowed) {
            retry = ahead - toleranceWhole + (candidateFraction > toleranceFraction ? 1 : 0);
        }
        long leftWhole = toleranceWhole - (tatWhole - now);
        long leftFraction = toleranceFraction - tatFraction;
        if (leftFraction < 0) {
            leftWhole--;
            leftFraction += per;
        }
        long remaining = leftWhole < 0 ? 0 : (leftWhole * per + leftFraction) / emission.micros();
        long reset = tatWhole - now + (tatFraction > 0 ? 1 : 0);
        return Micros.decision(allowed, remaining, retry, reset, policy.rate());
    }

    @Override
    public Runnable mark() {
        long w = whole;
        long f = fraction;
        long p = parts;
        return () -> {
            whole = w;
            fraction = f;
            parts = p;
        };
    }

    @Override
    public long expiresAtMicros() {
        return whole + (fraction > 0 ? 1 : 0);
    }
}
