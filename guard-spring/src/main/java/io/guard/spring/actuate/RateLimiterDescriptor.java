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
 * @param source  {@code configuration}, {@code refresh} (a configuration refresh changed it) or {@code override}
 * @param refreshedAt when a configuration refresh last changed the limit, or null
 * @param lease   the lease size it decides with ({@code 10}, {@code auto}); absent when exact (docs/algorithms.md)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RateLimiterDescriptor(String type, Policy policy, Backend backend, Stats stats, String source,
                                    ActiveOverride override, String refreshedAt, String lease) {

    /** The limit as configuration sets it, for a view that does not know of overrides. */
    static RateLimiterDescriptor of(RateLimitPolicy p, BackendStatus backend, Stats stats) {
        return new RateLimiterDescriptor("rate-limiter", policyOf(p),
                new Backend(backend.name(), backend.up() ? "UP" : "DOWN", backend.breakerState(), backend.lastError(),
                        backend.lastErrorTime()),
                stats, null, null, null, null);
    }

    /** The same limiter, telling where its policy comes from now (configuration, a refresh or an override). */
    RateLimiterDescriptor withOrigin(String source, ActiveOverride override, String refreshedAt) {
        return new RateLimiterDescriptor(type, policy, backend, stats, source, override, refreshedAt, lease);
    }

    /** The same limiter, deciding with leases of {@code size}; {@code null} for exact. */
    RateLimiterDescriptor withLease(String size) {
        return new RateLimiterDescriptor(type, policy, backend, stats, source, override, refreshedAt, size);
    }

    /**
     * An operator's override of the limit: what it changed, who made it and when; {@code shared} tells whether every
     * instance on the same Redis applies it, or this one only (the in-process backend).
     *
     * @param by         who made it ({@code actuator})
     * @param at         when (ISO-8601)
     * @param rate       the rate it sets, or absent
     * @param intervalMs the interval it sets, or absent
     * @param algorithm  the algorithm it sets, or absent
     * @param shadow     the shadow mode it sets, or absent
     * @param shared     whether the override applies to every instance sharing the backend
     * @param configured the policy configuration sets, which applies again once the override is removed
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ActiveOverride(String by, String at, Long rate, Long intervalMs, String algorithm, Boolean shadow,
                           boolean shared, Policy configured) {
    }

    static Policy policyOf(RateLimitPolicy p) {
        return new Policy(p.algorithm().name(), p.rate(), p.interval().toMillis(), p.burst(), p.scope().name(),
                p.timeSource().name(), p.onBackendFailure().name());
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
