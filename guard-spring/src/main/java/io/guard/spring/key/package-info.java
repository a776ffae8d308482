/**
 * Keys of {@code @RateLimit} computed in Java: {@link io.guard.spring.key.RateLimitKeyResolver} beans, and the
 * {@link io.guard.spring.key.RateLimitKeyContext} they are given.
 */
package io.guard.spring.key;
