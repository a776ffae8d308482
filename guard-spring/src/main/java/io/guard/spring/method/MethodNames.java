package io.guard.spring.method;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Formats methods the way error messages name them: {@code OrderController.submit(long)}. */
final class MethodNames {

    private MethodNames() {
    }

    static String of(Class<?> type, Method method) {
        return type.getSimpleName() + "." + signature(method);
    }

    /**
     * {@code submit(long, OrderRequest)}: the name and the simple names of the parameter types, as the source
     * declares them (a Kotlin suspend function without its {@code Continuation}).
     */
    static String signature(Method method) {
        return method.getName() + Arrays.stream(Coroutines.parameterTypes(method))
                .map(Class::getSimpleName)
                .collect(Collectors.joining(", ", "(", ")"));
    }
}
