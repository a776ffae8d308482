package io.guard.spring.aop;

import io.guard.breaker.CircuitBreaker;
import org.springframework.expression.Expression;

/**
 * One {@code @CircuitBreaker} on one method, resolved at start-up.
 *
 * @param breaker      the breaker the method's calls go through
 * @param fallback     the fallback overloads; null when the annotation names none
 * @param recordResult the parsed {@code recordResult} expression over {@code #result}; null when results never fail
 * @param site         where the annotation sits
 */
record BreakerSpec(CircuitBreaker breaker, FallbackMethods fallback, Expression recordResult, AnnotationSite site) {
}
