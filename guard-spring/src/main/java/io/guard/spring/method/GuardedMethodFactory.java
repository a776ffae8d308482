package io.guard.spring.method;

import io.guard.breaker.CircuitBreaker;
import io.guard.bulkhead.Bulkhead;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.annotation.RateLimits;
import org.springframework.core.KotlinDetector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.Expression;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Reads the Guard annotations that apply to one method of one class and resolves them into a
 * {@link GuardedMethod}, failing with a {@link GuardAnnotationException} on anything unusable.
 *
 * <p>Merging: class-level annotations apply to the methods {@link ClassLevelCoverage} names. Limits from the class and from the
 * method all apply, class limits first; a method limit with the same name as a class limit replaces it. A method's
 * {@code @CircuitBreaker} replaces the class's.
 */
final class GuardedMethodFactory {

    private final GuardExpressionParser parser;
    private final LimitSpecFactory limits;
    private final Function<String, CircuitBreaker> breakers;
    private final BiFunction<String, Integer, Bulkhead> bulkheads;

    /** @param bulkheads the bulkhead of a breaker name given the annotation's bound, or null for none */
    GuardedMethodFactory(GuardExpressionParser parser, LimitSpecFactory limits,
                         Function<String, CircuitBreaker> breakers, BiFunction<String, Integer, Bulkhead> bulkheads) {
        this.parser = parser;
        this.limits = limits;
        this.breakers = breakers;
        this.bulkheads = bulkheads;
    }

    /**
     * @param method      the method as declared (possibly on an interface)
     * @param specific    the most specific implementation of it in {@code targetClass}
     * @param targetClass the user class of the bean
     */
    GuardedMethod create(Method method, Method specific, Class<?> targetClass) {
        boolean classLevel = ClassLevelCoverage.covers(specific, targetClass);
        List<LimitSpec> limitSpecs = limitSpecs(method, specific, targetClass, classLevel);
        BreakerSpec breaker = breakerSpec(method, specific, targetClass, classLevel);
        if (limitSpecs.isEmpty() && breaker == null) {
            return GuardedMethod.NONE;
        }
        String unreachable = unreachableByProxies(specific);
        if (unreachable != null) {
            throw new AnnotationSite(breaker != null ? "CircuitBreaker" : "RateLimit", targetClass, specific)
                    .error("method", specific.getName(), "is " + unreachable + ": Spring's proxy cannot intercept it, "
                                    + "so its Guard annotations would never apply",
                            KotlinDetector.isKotlinType(targetClass)
                                    ? "Declare the function open, or apply the kotlin-spring compiler plugin "
                                    + "(org.jetbrains.kotlin.plugin.spring), which opens Spring beans and their "
                                    + "members."
                                    : "Make it a public (or protected), non-static, non-final method, and call it "
                                    + "through the bean.");
        }
        ReturnKind kind = ReturnKind.of(specific);
        boolean suspending = Coroutines.isSuspending(specific);
        if (suspending || kind == ReturnKind.FLOW) {
            String missing = Coroutines.missingSupport(targetClass.getClassLoader(), suspending);
            if (missing != null) {
                throw new AnnotationSite(breaker != null ? "CircuitBreaker" : "RateLimit", targetClass, specific)
                        .error("method", specific.getName(), (suspending ? "is a suspend function"
                                        : "returns a Flow") + ", which Guard guards only with " + missing
                                        + " on the class path (Spring's proxies need it too)",
                                "Add " + missing + " to the application's dependencies.");
            }
        }
        return new GuardedMethod(specific, limitSpecs, breaker, kind);
    }

    /**
     * Why a proxy never sees calls of {@code method}: {@code "static"}, {@code "private"} or {@code "final"} (a
     * subclass proxy, Spring Boot's default, cannot override it); null when it can.
     */
    private static String unreachableByProxies(Method method) {
        int modifiers = method.getModifiers();
        if (Modifier.isStatic(modifiers)) {
            return "static";
        }
        if (Modifier.isPrivate(modifiers)) {
            return "private";
        }
        return Modifier.isFinal(modifiers) ? "final" : null;
    }

    private List<LimitSpec> limitSpecs(Method method, Method specific, Class<?> targetClass, boolean classLevel) {
        Map<String, RateLimit> byName = new LinkedHashMap<>();
        if (classLevel) {
            for (RateLimit limit : repeatable(targetClass)) {
                byName.put(limit.name().trim(), limit);
            }
        }
        Set<RateLimit> onMethod = repeatable(specific);
        if (onMethod.isEmpty() && specific != method) {
            onMethod = repeatable(method);
        }
        Set<String> seen = new HashSet<>();
        for (RateLimit limit : onMethod) {
            if (!seen.add(limit.name().trim())) {
                throw new AnnotationSite("RateLimit", targetClass, specific).error("name", limit.name(),
                        "is used twice on this method", "Give each limit on a method its own name.");
            }
            byName.remove(limit.name().trim());
            byName.put(limit.name().trim(), limit);
        }
        List<LimitSpec> specs = new ArrayList<>(byName.size());
        for (RateLimit limit : byName.values()) {
            specs.add(limits.create(limit, new AnnotationSite("RateLimit", targetClass, specific)));
        }
        return List.copyOf(specs);
    }

    private static Set<RateLimit> repeatable(AnnotatedElement element) {
        return AnnotatedElementUtils.findMergedRepeatableAnnotations(element, RateLimit.class, RateLimits.class);
    }

    private BreakerSpec breakerSpec(Method method, Method specific, Class<?> targetClass, boolean classLevel) {
        var annotation = AnnotatedElementUtils.findMergedAnnotation(specific,
                io.guard.spring.annotation.CircuitBreaker.class);
        if (annotation == null && specific != method) {
            annotation = AnnotatedElementUtils.findMergedAnnotation(method,
                    io.guard.spring.annotation.CircuitBreaker.class);
        }
        if (annotation == null && classLevel) {
            annotation = AnnotatedElementUtils.findMergedAnnotation(targetClass,
                    io.guard.spring.annotation.CircuitBreaker.class);
        }
        if (annotation == null) {
            return null;
        }
        var site = new AnnotationSite("CircuitBreaker", targetClass, specific);
        String name = annotation.name().trim();
        if (name.isEmpty()) {
            throw site.error("name", annotation.name(), "is empty",
                    "Name the breaker; it is its configuration key under guard.circuit-breaker.instances.");
        }
        FallbackMethods fallback = annotation.fallbackMethod().isBlank() ? null
                : FallbackResolver.resolve(site, annotation.fallbackMethod().trim());
        Expression recordResult = annotation.recordResult().isBlank() ? null
                : parser.parse(site, "recordResult", annotation.recordResult(), Set.of("result"));
        if (annotation.maxConcurrentCalls() < 0) {
            throw site.error("maxConcurrentCalls", Integer.toString(annotation.maxConcurrentCalls()), "is negative",
                    "Use 0 for no bulkhead or a positive bound on concurrent calls.");
        }
        return new BreakerSpec(breaker(site, name), fallback, recordResult, site,
                bulkhead(site, name, annotation.maxConcurrentCalls()));
    }

    private Bulkhead bulkhead(AnnotationSite site, String name, int annotated) {
        try {
            return bulkheads.apply(name, annotated);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw site.error("maxConcurrentCalls", Integer.toString(annotated), "cannot have a bulkhead: "
                    + e.getMessage(), "Fix guard.circuit-breaker.instances." + name + ".max-concurrent-calls.");
        }
    }

    private CircuitBreaker breaker(AnnotationSite site, String name) {
        try {
            return breakers.apply(name);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw site.error("name", name, "cannot have a breaker: " + e.getMessage(),
                    "Fix guard.circuit-breaker.instances." + name + ".* or raise guard.circuit-breaker.max-breakers.");
        }
    }
}
