package io.guard.spring.method;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Kotlin {@code suspend} functions as Kotlin sees them, through Spring's Kotlin support and with no Kotlin type here,
 * so that Guard loads nothing of Kotlin for a Java application. In Java a suspend function takes one more parameter
 * (its {@code Continuation}) and returns {@code Object}; a fallback is matched to the parameters and the return type
 * that the Kotlin source declares.
 */
final class Coroutines {

    static final String FLOW = "kotlinx.coroutines.flow.Flow";

    private Coroutines() {
    }

    static boolean isSuspending(Method method) {
        return KotlinDetector.isKotlinPresent() && KotlinDetector.isSuspendingFunction(method);
    }

    static boolean returnsFlow(Method method) {
        return FLOW.equals(returnType(method).getName());
    }

    /**
     * What is missing to guard a suspend function (Spring's proxies need Kotlin reflection and the Reactor bridge) or
     * a Flow (the Reactor bridge adapts it); null when everything is there.
     */
    static String missingSupport(ClassLoader classLoader, boolean suspending) {
        if (suspending && !KotlinDetector.isKotlinReflectPresent()) {
            return "org.jetbrains.kotlin:kotlin-reflect";
        }
        return ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt", classLoader) ? null
                : "org.jetbrains.kotlinx:kotlinx-coroutines-reactor";
    }

    /** The parameters a caller passes: without a suspend function's {@code Continuation}. */
    static Class<?>[] parameterTypes(Method method) {
        Class<?>[] types = method.getParameterTypes();
        return isSuspending(method) ? Arrays.copyOf(types, types.length - 1) : types;
    }

    /** The return type as declared in Kotlin for a suspend function ({@code void} for {@code Unit}). */
    static Class<?> returnType(Method method) {
        return isSuspending(method) ? new MethodParameter(method, -1).getParameterType() : method.getReturnType();
    }

    static ResolvableType genericReturnType(Method method) {
        return isSuspending(method) ? ResolvableType.forMethodParameter(new MethodParameter(method, -1))
                : ResolvableType.forMethodReturnType(method);
    }
}
