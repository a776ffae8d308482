package io.guard.ratelimit.local;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.EmissionInterval;
import io.guard.ratelimit.Quota;
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

    /**
     * {@code token_bucket.lua}'s charge mode: moves the theoretical arrival time {@code permits} emission intervals
     * further (into debt, at most {@link RateLimitPolicy#MAX_COUNT} steps ahead of now) or back (never before now: a
     * refund never fills the bucket beyond full), then answers the quota.
     */
    Quota charge(RateLimitPolicy policy, long now, long permits) {
        EmissionInterval emission = EmissionInterval.of(policy);
        long per = emission.parts();
        long ahead = aheadSteps(per, now) + Math.multiplyExact(permits, emission.micros());
        ahead = Math.max(0, Math.min(RateLimitPolicy.MAX_COUNT, ahead));
        whole = now + ahead / per;
        fraction = ahead % per;
        parts = per;
        return quota(policy, now);
    }

    /** The quota with the debt: the balance in permits, rounded down, is negative while the key is in debt. */
    @Override
    public Quota quota(RateLimitPolicy policy, long now) {
        EmissionInterval emission = EmissionInterval.of(policy);
        long balance = Math.floorDiv(policy.burst() * emission.micros() - aheadSteps(emission.parts(), now),
                emission.micros());
        return Quota.of(decide(policy, now, 1, false), balance);
    }

    /**
     * How far the theoretical arrival time is ahead of {@code now}, in steps of {@code 1/per} microsecond; 0 when the
     * bucket is full. Counted in another rate's steps, it is rounded up to the next microsecond, never early.
     */
    private long aheadSteps(long per, long now) {
        long tatWhole = fraction > 0 && parts != per ? whole + 1 : whole;
        return tatWhole < now ? 0 : (tatWhole - now) * per + (parts == per ? fraction : 0);
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
