package io.guard.spring.aop;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.annotation.RateLimits;
import io.guard.spring.method.ClassLevelCoverage;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/**
 * Whether a method carries a Guard annotation (directly, through its interface, or through its class), without
 * resolving anything: what the pointcuts ask while proxies are created.
 */
final class GuardAnnotations {

    private GuardAnnotations() {
    }

    static boolean hasRateLimit(Method method, Class<?> targetClass) {
        return has(method, targetClass, RateLimit.class) || has(method, targetClass, RateLimits.class);
    }

    static boolean hasCircuitBreaker(Method method, Class<?> targetClass) {
        return has(method, targetClass, CircuitBreaker.class);
    }

    private static boolean has(Method method, Class<?> targetClass, Class<? extends Annotation> type) {
        if (AnnotatedElementUtils.hasAnnotation(method, type)) {
            return true;
        }
        if (targetClass == null) {
            return false;
        }
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        if (specific != method && AnnotatedElementUtils.hasAnnotation(specific, type)) {
            return true;
        }
        return AnnotatedElementUtils.hasAnnotation(targetClass, type) && ClassLevelCoverage.covers(specific, targetClass);
    }
}
