package io.guard.spring.method;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.annotation.RateLimits;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.ClassUtils;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether a class carries a Guard annotation anywhere (on itself, a superclass or an interface, or on any of their
 * methods, directly or as a meta-annotation), answered once per class. It is the first question for every bean:
 * the pointcuts' class filter while proxies are created and the start-up validation both ask it, so that the
 * hundreds of beans without a Guard annotation cost one scan each instead of a look-up per method and advisor.
 * ({@link AnnotationUtils#isCandidateClass} alone rules out only JDK types.)
 */
final class GuardedClasses {

    private static final List<Class<? extends Annotation>> ANNOTATIONS =
            List.of(RateLimit.class, RateLimits.class, CircuitBreaker.class);

    /** A cache per class that does not keep a class (or its class loader) alive. */
    private static final ClassValue<Boolean> GUARDED = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return scan(type);
        }
    };

    private GuardedClasses() {
    }

    static boolean declaresGuards(Class<?> type) {
        return GUARDED.get(type);
    }

    private static boolean scan(Class<?> type) {
        if (!AnnotationUtils.isCandidateClass(type, ANNOTATIONS)) {
            return false;
        }
        Class<?> userClass = ClassUtils.getUserClass(type);
        if (annotated(userClass, SearchStrategy.TYPE_HIERARCHY)) {
            return true;
        }
        // every method declared by the class, its superclasses and all their interfaces, overridden or not
        Set<Class<?>> seen = new HashSet<>();
        for (Class<?> current = userClass; current != null && current != Object.class;
             current = current.getSuperclass()) {
            if (declaresAnnotatedMethod(current, seen)) {
                return true;
            }
        }
        return false;
    }

    private static boolean declaresAnnotatedMethod(Class<?> type, Set<Class<?>> seen) {
        if (!seen.add(type)) {
            return false;
        }
        for (Method method : type.getDeclaredMethods()) {
            if (annotated(method, SearchStrategy.DIRECT)) {
                return true;
            }
        }
        for (Class<?> parent : type.getInterfaces()) {
            if (declaresAnnotatedMethod(parent, seen)) {
                return true;
            }
        }
        return false;
    }

    private static boolean annotated(AnnotatedElement element, SearchStrategy strategy) {
        MergedAnnotations annotations = MergedAnnotations.from(element, strategy);
        for (Class<? extends Annotation> guard : ANNOTATIONS) {
            if (annotations.isPresent(guard)) {
                return true;
            }
        }
        return false;
    }
}
