package io.guard.spring.method;

import org.springframework.util.ReflectionUtils;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Locale;

/**
 * Which methods a class-level {@code @RateLimit} or {@code @CircuitBreaker} covers: the public instance methods a
 * caller reaches through the bean, except those nobody means to guard. Not covered: the methods of {@code Object}
 * and their overrides ({@code toString}, {@code equals}, {@code hashCode}), so logging a bean neither spends a
 * permit nor fails while its breaker is open; JavaBeans accessors of the class's own fields ({@code getX()},
 * {@code isX()}, {@code setX(x)} where the class or a superclass declares a field {@code x}); and the callbacks of
 * Spring's own interfaces ({@code afterPropertiesSet}, {@code setBeanName}, ...). Annotate such a method itself to
 * guard it.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 */
public final class ClassLevelCoverage {

    private ClassLevelCoverage() {
    }

    /** @param specific the most specific implementation of the method in {@code targetClass} */
    public static boolean covers(Method specific, Class<?> targetClass) {
        int modifiers = specific.getModifiers();
        return Modifier.isPublic(modifiers) && !Modifier.isStatic(modifiers)
                && !specific.isSynthetic() && !specific.isBridge()
                && !isObjectMethod(specific)
                && !isFieldAccessor(specific, targetClass)
                && !isSpringCallback(specific, targetClass);
    }

    private static boolean isObjectMethod(Method method) {
        return method.getDeclaringClass() == Object.class || ReflectionUtils.isEqualsMethod(method)
                || ReflectionUtils.isHashCodeMethod(method) || ReflectionUtils.isToStringMethod(method);
    }

    private static boolean isFieldAccessor(Method method, Class<?> targetClass) {
        String name = method.getName();
        int parameters = method.getParameterCount();
        String property;
        if (parameters == 0 && name.startsWith("get") && method.getReturnType() != void.class) {
            property = name.substring(3);
        } else if (parameters == 0 && name.startsWith("is") && method.getReturnType() == boolean.class) {
            property = name.substring(2);
        } else if (parameters == 1 && name.startsWith("set")) {
            property = name.substring(3);
        } else {
            return false;
        }
        if (property.isEmpty()) {
            return false;
        }
        String field = property.substring(0, 1).toLowerCase(Locale.ROOT) + property.substring(1);
        Class<?> owner = targetClass == null ? method.getDeclaringClass() : targetClass;
        return ReflectionUtils.findField(owner, field) != null;
    }

    private static boolean isSpringCallback(Method method, Class<?> targetClass) {
        Class<?> owner = targetClass == null ? method.getDeclaringClass() : targetClass;
        for (Class<?> type : org.springframework.util.ClassUtils.getAllInterfacesForClassAsSet(owner)) {
            if (type.getName().startsWith("org.springframework.")
                    && ReflectionUtils.findMethod(type, method.getName(), method.getParameterTypes()) != null) {
                return true;
            }
        }
        return false;
    }
}
