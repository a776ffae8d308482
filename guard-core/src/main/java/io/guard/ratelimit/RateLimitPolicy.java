package io.guard.ratelimit;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One limit: at most {@code rate} permits per {@code interval}, counted by {@code algorithm}.
 *
 * <p>Validated on construction, so that a bad limit is an error at start-up and never reaches Redis: the message
 * names the limiter and the value. The bounds are those within which both backends decide exactly alike: Redis
 * scripts count in doubles, exact up to 2^53, so rates, intervals in microseconds and a token bucket's tolerance
 * in its own units stay at or below {@link #MAX_COUNT} (sums of two stay exact). A rate of {@code Long.MAX_VALUE}
 * meant as "unlimited" is therefore refused with a message, rather than decided differently by each backend.
 *
 * @param name             the limiter's name; part of every Redis key and of the {@code RateLimit-Policy} field
 * @param algorithm        how permits are counted
 * @param rate             permits per interval; 1 to {@link #MAX_COUNT}
 * @param interval         the window or refill period; 1 ms to {@link #MAX_INTERVAL}
 * @param burst            TOKEN_BUCKET only: the most permits that can be taken at once; defaults to {@code rate};
 *                         {@code burst x interval / rate} must span at most {@link #MAX_COUNT} steps of
 *                         {@code 1/rate} microsecond, the fraction reduced (see {@link EmissionInterval})
 * @param scope            one quota for the cluster, or one per instance
 * @param timeSource       whose clock counts (Redis server time by default)
 * @param onBackendFailure what to do when the backend cannot decide
 * @param replicaWait      replicas that must have a spend before an admission is granted (Redis {@code WAIT});
 *                         {@link ReplicaWait#NONE} by default
 */
public record RateLimitPolicy(String name, Algorithm algorithm, long rate, Duration interval, long burst,
                              Scope scope, TimeSource timeSource, BackendFailurePolicy onBackendFailure,
                              ReplicaWait replicaWait) {

    /** 2^52: the largest rate, and the most steps a token bucket's tolerance may span (see the class comment). */
    public static final long MAX_COUNT = 1L << 52;
    /** About 100 years: intervals in microseconds stay far below {@link #MAX_COUNT}, with room for the clock. */
    public static final Duration MAX_INTERVAL = Duration.ofDays(36_500);

    public RateLimitPolicy {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("rate limiter name must not be empty");
        }
        Objects.requireNonNull(algorithm, () -> "rate limiter '" + name + "': algorithm must not be null");
        if (rate < 1 || rate > MAX_COUNT) {
            throw new IllegalArgumentException("rate limiter '" + name + "': rate must be between 1 and " + MAX_COUNT
                    + " (2^52, the most Redis scripts count exactly) but was " + rate);
        }
        Objects.requireNonNull(interval, () -> "rate limiter '" + name + "': interval must not be null");
        if (interval.toMillis() < 1) {
            throw new IllegalArgumentException("rate limiter '" + name + "': interval must be at least 1ms but was "
                    + interval);
        }
        if (interval.compareTo(MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("rate limiter '" + name + "': interval must be at most "
                    + MAX_INTERVAL.toDays() + " days but was " + interval);
        }
        burst = burst == 0 ? rate : burst;
        if (burst < 1) {
            throw new IllegalArgumentException("rate limiter '" + name + "': burst must be at least 1 but was " + burst);
        }
        if (algorithm == Algorithm.TOKEN_BUCKET) {
            checkTolerance(name, rate, interval, burst);
        }
        scope = scope == null ? Scope.GLOBAL : scope;
        timeSource = timeSource == null ? TimeSource.SERVER : timeSource;
        onBackendFailure = onBackendFailure == null ? BackendFailurePolicy.FAIL_OPEN : onBackendFailure;
        replicaWait = replicaWait == null ? ReplicaWait.NONE : replicaWait;
    }

    /** A policy that waits for no replica ({@link ReplicaWait#NONE}). */
    public RateLimitPolicy(String name, Algorithm algorithm, long rate, Duration interval, long burst, Scope scope,
                           TimeSource timeSource, BackendFailurePolicy onBackendFailure) {
        this(name, algorithm, rate, interval, burst, scope, timeSource, onBackendFailure, ReplicaWait.NONE);
    }

    /**
     * A bucket's time is counted in steps of {@code 1/parts} microsecond (see {@link EmissionInterval}); its tolerance,
     * {@code burst} emission intervals, must span at most {@link #MAX_COUNT} steps so that Lua's doubles count it
     * exactly. Every burst up to 10^6 passes for any interval up to an hour; longer intervals with rates that do not
     * divide them evenly and huge bursts may not.
     */
    private static void checkTolerance(String name, long rate, Duration interval, long burst) {
        EmissionInterval emission = EmissionInterval.of(TimeUnit.MICROSECONDS.convert(interval), rate);
        if (burst > MAX_COUNT / emission.micros()) {
            throw new IllegalArgumentException("rate limiter '" + name + "': TOKEN_BUCKET burst " + burst + " at rate "
                    + rate + " per " + interval + " spans more than 2^52 steps of 1/" + emission.parts()
                    + " microsecond, more than Redis scripts count exactly; lower the burst, shorten the interval, or"
                    + " pick a rate that divides the interval in microseconds");
        }
    }

    /** A GLOBAL, server-time, fail-open policy with {@code burst = rate}. */
    public static RateLimitPolicy of(String name, Algorithm algorithm, long rate, Duration interval) {
        return new RateLimitPolicy(name, algorithm, rate, interval, 0, Scope.GLOBAL, TimeSource.SERVER,
                BackendFailurePolicy.FAIL_OPEN);
    }

    /** The most permits one request may ask for: {@code burst} for TOKEN_BUCKET, else {@code rate}. */
    public long maxPermits() {
        return algorithm == Algorithm.TOKEN_BUCKET ? burst : rate;
    }

    /**
     * Checks a request size against this policy.
     *
     * @throws IllegalArgumentException naming the limiter when {@code permits} is below 1 or above {@link #maxPermits()}
     */
    public void checkPermits(long permits) {
        if (permits < 1 || permits > maxPermits()) {
            throw new IllegalArgumentException("rate limiter '" + name + "': permits must be between 1 and "
                    + maxPermits() + " but was " + permits);
        }
    }

    /**
     * A charge after the call ({@link RateLimiter#charge}) checked against this policy and bounded: only a
     * TOKEN_BUCKET can carry a debt, and a charge of more than {@code MAX_COUNT / micros} permits (see
     * {@link EmissionInterval}) counts as that many, so that the scripts' doubles stay exact; the debt itself is
     * capped where the bucket's time would span more than {@link #MAX_COUNT} steps.
     *
     * @throws IllegalArgumentException naming the limiter when its algorithm is not TOKEN_BUCKET
     */
    public long checkCharge(long permits) {
        if (algorithm != Algorithm.TOKEN_BUCKET) {
            throw new IllegalArgumentException("rate limiter '" + name + "': a cost charged after the call needs "
                    + "TOKEN_BUCKET (whose balance can go into debt) but the algorithm is " + algorithm);
        }
        long max = MAX_COUNT / EmissionInterval.of(this).micros();
        return Math.max(-max, Math.min(max, permits));
    }

    public RateLimitPolicy withRate(long newRate) {
        return new RateLimitPolicy(name, algorithm, newRate, interval, burst == rate ? 0 : burst, scope, timeSource,
                onBackendFailure, replicaWait);
    }

    public RateLimitPolicy withInterval(Duration newInterval) {
        return new RateLimitPolicy(name, algorithm, rate, newInterval, burst, scope, timeSource, onBackendFailure,
                replicaWait);
    }

    /** The same limit, granting admissions only once {@code wait} is met. */
    public RateLimitPolicy withReplicaWait(ReplicaWait wait) {
        return new RateLimitPolicy(name, algorithm, rate, interval, burst, scope, timeSource, onBackendFailure, wait);
    }
}
