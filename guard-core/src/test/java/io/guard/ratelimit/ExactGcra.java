package io.guard.ratelimit;

import java.math.BigInteger;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The token bucket's reference model, written from the definition rather than from either backend: all times are
 * scaled by the rate (units of {@code 1/rate} microsecond, the fraction not reduced) and held in {@link BigInteger},
 * so nothing can round or overflow. One instance is one key under one fixed policy.
 */
final class ExactGcra {

    private final BigInteger rate;
    private final BigInteger interval;
    private final BigInteger tolerance;
    private final long limit;
    private BigInteger tat;

    ExactGcra(RateLimitPolicy policy) {
        this.rate = BigInteger.valueOf(policy.rate());
        this.interval = BigInteger.valueOf(policy.interval().toNanos() / 1000);
        this.tolerance = BigInteger.valueOf(policy.burst()).multiply(interval);
        this.limit = policy.rate();
    }

    Decision decide(long nowMicros, long permits) {
        BigInteger now = BigInteger.valueOf(nowMicros).multiply(rate);
        BigInteger current = tat == null ? now : tat.max(now);
        BigInteger candidate = current.add(BigInteger.valueOf(permits).multiply(interval));
        boolean allowed = candidate.subtract(now).compareTo(tolerance) <= 0;
        long retry = 0;
        if (allowed) {
            current = candidate;
            tat = candidate;
        } else {
            retry = ceilDiv(candidate.subtract(now).subtract(tolerance), rate);
        }
        BigInteger left = tolerance.subtract(current.subtract(now));
        long remaining = left.signum() < 0 ? 0 : left.divide(interval).longValueExact();
        long reset = ceilDiv(current.subtract(now), rate);
        return new Decision(allowed, remaining, Duration.of(retry, ChronoUnit.MICROS), Duration.of(reset, ChronoUnit.MICROS),
                limit);
    }

    private static long ceilDiv(BigInteger a, BigInteger b) {
        BigInteger[] qr = a.divideAndRemainder(b);
        return (qr[1].signum() > 0 ? qr[0].add(BigInteger.ONE) : qr[0]).longValueExact();
    }
}
