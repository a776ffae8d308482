package io.guard.spring.aot;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.method.ClassLevelCoverage;
import io.guard.spring.method.GuardedMethods;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A bean class as Guard reflects on it at start-up and on each call: its guarded methods (looked up and invoked
 * reflectively), the fallback methods their annotations name (found by name in the class and its superclasses,
 * private ones included, and invoked reflectively), and the parameter and return types that key, permit and
 * {@code recordResult} expressions read properties of. Found from the annotations at build time, so that a native
 * image keeps exactly these members.
 */
final class GuardedType {

    /** Types whose members an expression may read but that need no hint: the JDK's and the frameworks' own. */
    private static final List<String> PLATFORM = List.of("java.", "javax.", "jakarta.", "jdk.", "sun.",
            "org.springframework.", "reactor.", "kotlin.");

    private final Class<?> type;
    private final Set<Method> guarded;
    private final Set<Method> fallbacks;

    private GuardedType(Class<?> type, Set<Method> guarded, Set<Method> fallbacks) {
        this.type = type;
        this.guarded = guarded;
        this.fallbacks = fallbacks;
    }

    /** What {@code beanClass} has that Guard reflects on; {@link #isEmpty()} when it carries no Guard annotation. */
    static GuardedType of(Class<?> beanClass) {
        Class<?> type = ClassUtils.getUserClass(beanClass);
        Set<Method> guarded = new LinkedHashSet<>();
        Set<String> fallbackNames = new LinkedHashSet<>();
        if (GuardedMethods.isCandidate(type)) {
            List<MergedAnnotation<?>> onClass = guards(MergedAnnotations.from(type, SearchStrategy.TYPE_HIERARCHY));
            for (Method method : ReflectionUtils.getUniqueDeclaredMethods(type,
                    m -> !m.isBridge() && !m.isSynthetic() && m.getDeclaringClass() != Object.class)) {
                List<MergedAnnotation<?>> onMethod = guards(
                        MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY));
                List<MergedAnnotation<?>> applying = !onMethod.isEmpty() ? onMethod
                        : ClassLevelCoverage.covers(method, type) ? onClass : List.of();
                if (!applying.isEmpty()) {
                    guarded.add(method);
                    applying.forEach(guard -> fallbackNames.add(guard.getString("fallbackMethod")));
                }
            }
        }
        fallbackNames.remove("");
        Set<Method> fallbacks = new LinkedHashSet<>();
        ReflectionUtils.doWithMethods(type, fallbacks::add,
                m -> fallbackNames.contains(m.getName()) && !m.isBridge() && !m.isSynthetic());
        return new GuardedType(type, guarded, fallbacks);
    }

    private static List<MergedAnnotation<?>> guards(MergedAnnotations annotations) {
        // @RateLimits, the container of repeated @RateLimit, is unwrapped by MergedAnnotations itself.
        return Stream.<MergedAnnotation<?>>concat(annotations.stream(RateLimit.class),
                annotations.stream(CircuitBreaker.class)).toList();
    }

    boolean isEmpty() {
        return guarded.isEmpty();
    }

    Set<Method> guardedMethods() {
        return guarded;
    }

    Set<Method> fallbackMethods() {
        return fallbacks;
    }

    // INTROSPECT_* are deprecated in Spring Framework 7, where any registered type may be introspected; Framework
    // 6.2 (Boot 3.5) still needs them for getMethods()/getDeclaredMethods() at start-up.
    @SuppressWarnings("deprecation")
    void registerHints(RuntimeHints hints) {
        hints.reflection().registerType(type, MemberCategory.INTROSPECT_PUBLIC_METHODS,
                MemberCategory.INTROSPECT_DECLARED_METHODS);
        Set<Class<?>> read = new LinkedHashSet<>();
        for (Method method : guarded) {
            hints.reflection().registerMethod(method, ExecutableMode.INVOKE);
            for (int i = 0; i < method.getParameterCount(); i++) {
                collect(ResolvableType.forMethodParameter(method, i), read, 0);
            }
            collect(ResolvableType.forMethodReturnType(method), read, 0);
        }
        fallbacks.forEach(fallback -> hints.reflection().registerMethod(fallback, ExecutableMode.INVOKE));
        read.forEach(readType -> hints.reflection().registerType(readType, MemberCategory.INVOKE_PUBLIC_METHODS));
    }

    /** The application's types in {@code type}: itself, array components and generics (a few levels deep). */
    private static void collect(ResolvableType type, Set<Class<?>> into, int depth) {
        Class<?> raw = type.resolve();
        if (raw == null || depth > 3) {
            return;
        }
        if (raw.isArray()) {
            collect(type.getComponentType(), into, depth + 1);
            return;
        }
        if (!raw.isPrimitive() && PLATFORM.stream().noneMatch(raw.getName()::startsWith)) {
            into.add(raw);
        }
        for (ResolvableType generic : type.getGenerics()) {
            collect(generic, into, depth + 1);
        }
    }

    @Override
    public String toString() {
        List<String> names = new ArrayList<>();
        guarded.forEach(method -> names.add(method.getName()));
        return type.getName() + " guarded " + names + ", fallbacks " + fallbacks.size();
    }
}
