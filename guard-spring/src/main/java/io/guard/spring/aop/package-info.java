/**
 * The two Spring AOP advisors behind {@code @RateLimit} and {@code @CircuitBreaker}
 * ({@link io.guard.spring.aop.GuardAdvisors}), their interceptors, and what only they use at call time: taking
 * permits, running the breaker around the call, fallbacks, asynchronous and Reactor return types.
 *
 * <p>Internal: not an API. {@code GuardAdvisors} is public for the auto-configuration, {@code Limiting} for route
 * limits.
 */
package io.guard.spring.aop;
