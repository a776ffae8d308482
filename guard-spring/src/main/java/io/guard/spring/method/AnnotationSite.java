package io.guard.spring.method;

import java.lang.reflect.Method;

/**
 * One Guard annotation as it applies to one method, for error messages: {@code @RateLimit on
 * OrderController.submit(long)}; or a limit declared in configuration rather than on a method (a route), named by
 * its property: {@code guard.rate-limit.routes[0]}.
 *
 * <p>Internal: public only because Guard's {@code routes} package uses it; not an API.
 *
 * @param annotation the annotation's simple name, without {@code @}; for configuration, the property
 * @param type       the class the method is called on (the user class, never a proxy); null for configuration
 * @param method     the annotated method, or the method a class-level annotation applies to; null for configuration
 */
public record AnnotationSite(String annotation, Class<?> type, Method method) {

    /** A limit declared by the property {@code property} rather than by an annotation. */
    public static AnnotationSite property(String property) {
        return new AnnotationSite(property, null, null);
    }

    public String describe() {
        return method == null ? annotation : "@" + annotation + " on " + MethodNames.of(type, method);
    }

    public GuardAnnotationException error(String attribute, String value, String problem, String action) {
        return new GuardAnnotationException(describe(), attribute, value, problem, action);
    }
}
