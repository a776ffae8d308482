package io.guard.spring.actuate;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.guard.ratelimit.RateLimitPolicy;

/**
 * What the {@code guard} endpoint shows for one rate limiter: its policy, the backend that decides it and the
 * decisions made on this instance since it started. Durations are milliseconds.
 *
 * @param type    always {@code rate-limiter}, so a client can tell the entries apart
 * @param policy  the limit as configured
 * @param backend the backend deciding the limit and whether it answers
 * @param stats   decisions made on this instance since start
 */
public record RateLimiterDescriptor(String type, Policy policy, Backend backend, Stats stats) {

    static RateLimiterDescriptor of(RateLimitPolicy p, BackendStatus backend, Stats stats) {
        return new RateLimiterDescriptor("rate-limiter",
                new Policy(p.algorithm().name(), p.rate(), p.interval().toMillis(), p.burst(), p.scope().name(),
                        p.timeSource().name(), p.onBackendFailure().name()),
                new Backend(backend.name(), backend.up() ? "UP" : "DOWN", backend.breakerState(), backend.lastError(),
                        backend.lastErrorTime()),
                stats);
    }

    /**
     * @param algorithm        {@code SLIDING_LOG}, {@code TOKEN_BUCKET} or {@code FIXED_WINDOW}
     * @param rate             permits per interval
     * @param intervalMs       the interval in milliseconds
     * @param burst            the most permits one request may take at once (TOKEN_BUCKET), else the rate
     * @param scope            {@code GLOBAL} or {@code PER_INSTANCE}
     * @param timeSource       {@code SERVER} (Redis time) or {@code CLIENT}
     * @param onBackendFailure what happens when the backend cannot decide
     */
    public record Policy(String algorithm, long rate, long intervalMs, long burst, String scope, String timeSource,
                         String onBackendFailure) {
    }

    /**
     * @param name          {@code redis} or {@code local}
     * @param status        {@code UP} or {@code DOWN}
     * @param breakerState  the state of the breaker guarding the backend; absent without one
     * @param lastError     the class of the last backend failure; absent if none
     * @param lastErrorTime when it happened (ISO-8601); absent if none
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Backend(String name, String status, String breakerState, String lastError,
                          String lastErrorTime) {
    }

    /**
     * @param permitted requests that got their permits
     * @param rejected  requests refused by the limit
     * @param errors    requests the backend could not decide (before the failure policy applied)
     */
    public record Stats(long permitted, long rejected, long errors) {
    }
}
