package io.guard.ratelimit;

/**
 * What one limiter has answered since start-up; each request counts once.
 *
 * @param permitted requests the backend allowed
 * @param rejected  requests the backend refused for lack of permits
 * @param errors    requests the backend could not decide; the failure policy answered them (an allow, a local
 *                  decision, or an error to the caller)
 */
public record LimiterStats(long permitted, long rejected, long errors) {
}
