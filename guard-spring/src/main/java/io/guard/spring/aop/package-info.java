/**
 * The two Spring AOP advisors behind {@code @RateLimit} and {@code @CircuitBreaker}
 * ({@link io.guard.spring.aop.GuardAdvisors}), their interceptors, and what only they use at call time: taking
 * permits, running the breaker around the call, fallbacks, asynchronous and Reactor return types.
 *
 * <p>Internal: not an API. {@code GuardAdvisors} is public for the auto-configuration. The limit decision they share
 * with route limits and the gateway ({@code Limiting}) is in {@code io.guard.spring.ratelimit}.
 */
package io.guard.spring.aop;
