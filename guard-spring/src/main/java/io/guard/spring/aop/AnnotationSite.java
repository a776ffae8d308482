package io.guard.spring.aop;

import java.lang.reflect.Method;

/**
 * One Guard annotation as it applies to one method, for error messages: {@code @RateLimit on
 * OrderController.submit(long)}.
 *
 * @param annotation the annotation's simple name, without {@code @}
 * @param type       the class the method is called on (the user class, never a proxy)
 * @param method     the annotated method, or the method a class-level annotation applies to
 */
record AnnotationSite(String annotation, Class<?> type, Method method) {

    String describe() {
        return "@" + annotation + " on " + MethodNames.of(type, method);
    }

    GuardAnnotationException error(String attribute, String value, String problem, String action) {
        return new GuardAnnotationException(describe(), attribute, value, problem, action);
    }
}
