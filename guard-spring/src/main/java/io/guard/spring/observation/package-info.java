/**
 * Micrometer observations of Guard's decisions: every {@code @RateLimit} decision is a
 * {@code guard.ratelimit.decision} observation and every {@code @CircuitBreaker} call a
 * {@code guard.circuitbreaker.call} observation, so a trace shows which limit refused a request (and for how long)
 * and which breaker state sent a call to its fallback. Replace a convention by declaring a
 * {@link io.guard.spring.observation.RateLimitObservationConvention} or
 * {@link io.guard.spring.observation.CircuitBreakerObservationConvention} bean; switch observations off with
 * {@code guard.observations.enabled=false}.
 */
package io.guard.spring.observation;
