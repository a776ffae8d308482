package io.guard.spring.method;

import io.guard.spring.method.FallbackMethods.Fallback;
import io.guard.spring.method.FallbackMethods.Shape;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Finds the fallback overloads of a guarded method at start-up, in its class and superclasses (private methods
 * included), and fails with the signatures that would match when none fits. A breaker's fallback may receive any
 * error, so an overload may narrow itself to a Throwable subtype; a rate limit's fallback always receives the
 * refusal, so its error parameter must accept exactly that.
 */
final class FallbackResolver {

    private FallbackResolver() {
    }

    /** A breaker's fallback: any Throwable subtype narrows an overload to those errors. */
    static FallbackMethods resolve(AnnotationSite site, String name) {
        return resolve(site, name, new ErrorParameter(Throwable.class, true));
    }

    /** A fallback that is only ever called with {@code error}: an error parameter must accept it. */
    static FallbackMethods resolveFor(AnnotationSite site, String name, Class<? extends Throwable> error) {
        return resolve(site, name, new ErrorParameter(error, false));
    }

    /**
     * What the trailing parameter of a fallback receives.
     *
     * @param type      the error the fallback is called with (Throwable: any)
     * @param narrowing whether an overload may declare a subtype of {@code type}, taking only those errors
     */
    private record ErrorParameter(Class<? extends Throwable> type, boolean narrowing) {

        boolean accepts(Class<?> parameter) {
            return Throwable.class.isAssignableFrom(parameter)
                    && (narrowing ? type.isAssignableFrom(parameter) : parameter.isAssignableFrom(type));
        }
    }

    /** The overloads of {@code name} that fit {@code method}; throws naming what would fit when there is none. */
    private static FallbackMethods resolve(AnnotationSite site, String name, ErrorParameter error) {
        Method method = site.method();
        List<Fallback> typed = new ArrayList<>();
        Fallback untyped = null;
        List<Method> misfits = new ArrayList<>();
        boolean suspends = Coroutines.isSuspending(method);
        for (Method candidate : candidates(site.type(), name)) {
            Shape shape = shape(method, candidate, error);
            if (shape == null || !returnFits(method, candidate)) {
                misfits.add(candidate);
            } else if (shape == Shape.ARGS) {
                untyped = new Fallback(accessible(candidate), shape, suspends);
            } else {
                typed.add(new Fallback(accessible(candidate), shape, suspends));
            }
        }
        if (typed.isEmpty() && untyped == null) {
            throw site.error("fallbackMethod", name, misfits.isEmpty()
                            ? "names no method of " + site.type().getSimpleName()
                            : "has no overload that fits; found " + describe(misfits),
                    "Declare one of: " + (suspends ? KotlinFallbackSignatures.expected(method, name, error.type(),
                            error.narrowing()) : expected(method, name, error)) + " in " + site.type().getSimpleName() + ".");
        }
        return new FallbackMethods(name, typed, untyped);
    }

    private static List<Method> candidates(Class<?> type, String name) {
        List<Method> found = new ArrayList<>();
        ReflectionUtils.doWithMethods(type, found::add,
                m -> m.getName().equals(name) && !m.isBridge() && !m.isSynthetic());
        return found;
    }

    /**
     * How {@code candidate} takes its arguments, or null when its parameters fit no shape. Parameters count as
     * Kotlin declares them: a suspend function's {@code Continuation} is not one, and only a suspend function may
     * have a suspend fallback (nothing else could wait for it).
     */
    private static Shape shape(Method method, Method candidate, ErrorParameter error) {
        if (Coroutines.isSuspending(candidate) && !Coroutines.isSuspending(method)) {
            return null;
        }
        Class<?>[] wanted = Coroutines.parameterTypes(method);
        Class<?>[] offered = Coroutines.parameterTypes(candidate);
        if (offered.length == wanted.length && accepts(offered, wanted)) {
            return Shape.ARGS;
        }
        if (offered.length == wanted.length + 1 && accepts(offered, wanted) && error.accepts(offered[wanted.length])) {
            return Shape.ARGS_AND_ERROR;
        }
        if (offered.length == 1 && error.accepts(offered[0])) {
            return Shape.ERROR;
        }
        return null;
    }

    private static boolean accepts(Class<?>[] offered, Class<?>[] wanted) {
        for (int i = 0; i < wanted.length; i++) {
            if (!ClassUtils.isAssignable(offered[i], wanted[i])) {
                return false;
            }
        }
        return true;
    }

    /** Return types as Kotlin declares them: a suspend function's, not the {@code Object} Java sees. */
    private static boolean returnFits(Method method, Method candidate) {
        Class<?> wanted = Coroutines.returnType(method);
        Class<?> offered = Coroutines.returnType(candidate);
        if (wanted == void.class) {
            return offered == void.class;
        }
        if (!ClassUtils.isAssignable(wanted, offered)) {
            return false;
        }
        // Generics too: a CompletionStage<Integer> fallback does not fit a CompletionStage<String> method.
        return wanted.isPrimitive() || Coroutines.genericReturnType(method)
                .isAssignableFrom(Coroutines.genericReturnType(candidate));
    }

    private static Method accessible(Method candidate) {
        ReflectionUtils.makeAccessible(candidate);
        return candidate;
    }

    private static String expected(Method method, String name, ErrorParameter error) {
        String params = Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", "));
        String returns = " returning " + method.getReturnType().getSimpleName();
        String errorName = error.type().getSimpleName();
        String withError = params.isEmpty() ? errorName : params + ", " + errorName;
        List<String> shapes = new ArrayList<>(List.of(name + "(" + params + ")" + returns,
                name + "(" + withError + ")" + returns));
        if (!params.isEmpty()) {
            shapes.add(name + "(" + errorName + ")" + returns);
        }
        return String.join(", ", shapes) + (error.narrowing()
                ? " (any " + errorName + " subtype narrows an overload to those errors)"
                : " (the error parameter may be any supertype of " + errorName + ")");
    }

    private static String describe(List<Method> methods) {
        return methods.stream()
                .map(m -> MethodNames.signature(m) + " returning " + m.getReturnType().getSimpleName())
                .collect(Collectors.joining(", "));
    }
}
