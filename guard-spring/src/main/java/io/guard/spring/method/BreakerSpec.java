package io.guard.spring.method;

import io.guard.breaker.CircuitBreaker;
import io.guard.bulkhead.Bulkhead;
import org.springframework.expression.Expression;

/**
 * One {@code @CircuitBreaker} on one method, resolved at start-up.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 *
 * @param breaker      the breaker the method's calls go through
 * @param fallback     the fallback overloads; null when the annotation names none
 * @param recordResult the parsed {@code recordResult} expression over {@code #result}; null when results never fail
 * @param site         where the annotation sits
 * @param bulkhead     the bound on concurrent calls of the breaker's name; null when there is none
 */
public record BreakerSpec(CircuitBreaker breaker, FallbackMethods fallback, Expression recordResult,
                          AnnotationSite site, Bulkhead bulkhead) {
}
