package io.guard.spring.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Protects calls to a downstream: the annotated method (or every public method of the annotated class) runs
 * through the named circuit breaker, configured in {@code guard.circuit-breaker.instances.<name>.*} over
 * {@code guard.circuit-breaker.defaults.*}.
 *
 * <p>The fallback is resolved and checked at start-up: a missing or mismatched one stops the application with a
 * message listing the signatures that would match.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface CircuitBreaker {

    /** The breaker's name; several methods may share one breaker. */
    String name();

    /**
     * A method of the same class with the same parameters plus an optional trailing {@link Throwable} (or only the
     * Throwable), returning a type assignable to the protected method's. Several overloads with different
     * exception types may exist: the closest type wins. Empty: no fallback, an open breaker answers 503.
     */
    String fallbackMethod() default "";

    /** SpEL over {@code #result}: true means the returned value counts as a failure. Empty: results never fail. */
    String recordResult() default "";
}
