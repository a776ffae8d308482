package io.guard.ratelimit;

import java.util.concurrent.TimeUnit;

/**
 * A TOKEN_BUCKET's emission interval {@code interval / rate} as a reduced fraction of microseconds,
 * {@code micros / parts}: the time one permit is worth, kept exact because a rate such as 3 per second or 3,000,000
 * per second has no exact decimal or binary interval. Both backends count a bucket's time in whole microseconds
 * plus a remainder in {@code 1/parts} of a microsecond, so they never round.
 *
 * @param micros the numerator: microseconds per {@code parts} permits
 * @param parts  the denominator, the rate reduced by the greatest common divisor
 */
public record EmissionInterval(long micros, long parts) {

    /** The reduced {@code interval / rate} of {@code policy}, whatever its algorithm. */
    public static EmissionInterval of(RateLimitPolicy policy) {
        return of(TimeUnit.MICROSECONDS.convert(policy.interval()), policy.rate());
    }

    static EmissionInterval of(long intervalMicros, long rate) {
        long divisor = gcd(intervalMicros, rate);
        return new EmissionInterval(intervalMicros / divisor, rate / divisor);
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long r = a % b;
            a = b;
            b = r;
        }
        return a;
    }
}
