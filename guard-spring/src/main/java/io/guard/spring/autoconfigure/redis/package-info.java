/**
 * The rate-limit backend's wiring: which Redis client Guard runs its scripts on, or none
 * ({@link io.guard.spring.autoconfigure.redis.BackendChoice}, asked by one condition), the backend configuration
 * with its failover breaker and overrides, Guard's own Redisson client and the warm-up before traffic.
 *
 * <p>Internal: not an API. The public types are imported by the auto-configuration or read by the start-up report.
 */
package io.guard.spring.autoconfigure.redis;
