/**
 * Rate limits as a Spring application meets them: what users catch ({@link
 * io.guard.spring.ratelimit.RateLimitExceededException}, {@link io.guard.spring.ratelimit.MissingRateLimitKeyException},
 * {@link io.guard.spring.ratelimit.UnknownRateLimitTierException}, {@link
 * io.guard.spring.ratelimit.InvalidPermitsException}) and call ({@link io.guard.spring.ratelimit.RateLimitQuotas}),
 * plus the settings a limit is configured with ({@link io.guard.spring.ratelimit.LimitSettings}, {@link
 * io.guard.spring.ratelimit.LimitTiers}, {@link io.guard.spring.ratelimit.MissingKeyPolicy}) and the limits changed at
 * run time ({@link io.guard.spring.ratelimit.LiveLimits}, {@link io.guard.spring.ratelimit.LimitOverride}), and the
 * decision every entry shares ({@link io.guard.spring.ratelimit.Limiting}: the advisor, route limits, the gateway).
 *
 * <p>Public API: the exceptions, {@code RateLimitQuotas} and the settings types are what applications use. The
 * decision sinks ({@link io.guard.spring.ratelimit.RateLimitDecisionSink}) connect the aspect to the HTTP layer's
 * {@code RateLimit} header fields.
 */
package io.guard.spring.ratelimit;
