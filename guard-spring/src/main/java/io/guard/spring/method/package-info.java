/**
 * Resolving an annotated method once, at start-up: Guard's annotations on a method and its class become a
 * {@link io.guard.spring.method.GuardedMethod} (limit specs, breaker spec, return kind), with SpEL parsed and checked,
 * fallbacks found, key-resolver beans named and every mistake reported as a
 * {@link io.guard.spring.method.GuardAnnotationException} before the first call. Also the evaluation contexts those
 * expressions run in at call time.
 *
 * <p>Public API: {@code GuardAnnotationException} (what a failed start-up reports) and
 * {@link io.guard.spring.method.GuardExpressionRoot} ({@code #root} in expressions). The other public types are
 * internal: public only for Guard's {@code aop}, {@code ratelimit}, {@code routes} and {@code autoconfigure} packages.
 */
package io.guard.spring.method;
