package io.guard.ratelimit;

import java.time.Duration;
import java.util.Objects;

/**
 * One limit: at most {@code rate} permits per {@code interval}, counted by {@code algorithm}.
 *
 * <p>Validated on construction, so that a bad limit is an error at start-up and never reaches Redis: the message
 * names the limiter and the value.
 *
 * @param name             the limiter's name; part of every Redis key and of the {@code RateLimit-Policy} field
 * @param algorithm        how permits are counted
 * @param rate             permits per interval; at least 1
 * @param interval         the window or refill period; at least 1 ms
 * @param burst            TOKEN_BUCKET only: the most permits that can be taken at once; defaults to {@code rate}
 * @param scope            one quota for the cluster, or one per instance
 * @param timeSource       whose clock counts (Redis server time by default)
 * @param onBackendFailure what to do when the backend cannot decide
 */
public record RateLimitPolicy(String name, Algorithm algorithm, long rate, Duration interval, long burst,
                              Scope scope, TimeSource timeSource, BackendFailurePolicy onBackendFailure) {

    public RateLimitPolicy {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("rate limiter name must not be empty");
        }
        Objects.requireNonNull(algorithm, () -> "rate limiter '" + name + "': algorithm must not be null");
        if (rate < 1) {
            throw new IllegalArgumentException("rate limiter '" + name + "': rate must be at least 1 but was " + rate);
        }
        Objects.requireNonNull(interval, () -> "rate limiter '" + name + "': interval must not be null");
        if (interval.toMillis() < 1) {
            throw new IllegalArgumentException("rate limiter '" + name + "': interval must be at least 1ms but was "
                    + interval);
        }
        burst = burst == 0 ? rate : burst;
        if (burst < 1) {
            throw new IllegalArgumentException("rate limiter '" + name + "': burst must be at least 1 but was " + burst);
        }
        scope = scope == null ? Scope.GLOBAL : scope;
        timeSource = timeSource == null ? TimeSource.SERVER : timeSource;
        onBackendFailure = onBackendFailure == null ? BackendFailurePolicy.FAIL_OPEN : onBackendFailure;
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

    public RateLimitPolicy withRate(long newRate) {
        return new RateLimitPolicy(name, algorithm, newRate, interval, burst == rate ? 0 : burst, scope, timeSource,
                onBackendFailure);
    }

    public RateLimitPolicy withInterval(Duration newInterval) {
        return new RateLimitPolicy(name, algorithm, rate, newInterval, burst, scope, timeSource, onBackendFailure);
    }
}
