package io.guard.spring.method;

import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fallback signatures a Kotlin developer can write for a {@code suspend} function, for the start-up error that
 * lists what would fit: Kotlin syntax, parameter names and Kotlin's names of the basic types, never the
 * {@code Continuation} parameter that Java sees.
 */
final class KotlinFallbackSignatures {

    private static final Map<Class<?>, String> KOTLIN_NAMES = Map.of(
            Object.class, "Any", void.class, "Unit", int.class, "Int", long.class, "Long", boolean.class, "Boolean",
            double.class, "Double", float.class, "Float", short.class, "Short", byte.class, "Byte", char.class, "Char");

    private KotlinFallbackSignatures() {
    }

    static String expected(Method method, String name, Class<? extends Throwable> error, boolean narrowing) {
        Class<?>[] types = Coroutines.parameterTypes(method);
        String[] names = new DefaultParameterNameDiscoverer().getParameterNames(method);
        List<String> params = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            params.add((names != null && i < names.length ? names[i] : "arg" + i) + ": " + kotlinName(types[i]));
        }
        String errorParam = "error: " + error.getSimpleName();
        String returns = Coroutines.returnType(method) == void.class ? ""
                : ": " + kotlinName(Coroutines.returnType(method));
        List<String> shapes = new ArrayList<>();
        shapes.add("suspend fun " + name + "(" + String.join(", ", params) + ")" + returns);
        List<String> withError = new ArrayList<>(params);
        withError.add(errorParam);
        shapes.add("suspend fun " + name + "(" + String.join(", ", withError) + ")" + returns);
        if (!params.isEmpty()) {
            shapes.add("suspend fun " + name + "(" + errorParam + ")" + returns);
        }
        return String.join(", ", shapes) + " (or the same without suspend; "
                + (narrowing ? "any " + error.getSimpleName() + " subtype narrows an overload to those errors)"
                : "the error parameter may be any supertype of " + error.getSimpleName() + ")");
    }

    /** Kotlin's name of a type: {@code Int} for {@code int} and {@code Integer}, {@code Any} for Object. */
    private static String kotlinName(Class<?> type) {
        Class<?> key = type;
        for (Class<?> primitive : KOTLIN_NAMES.keySet()) {
            if (primitive.isPrimitive() && ClassUtils.resolvePrimitiveIfNecessary(primitive) == type) {
                key = primitive;
            }
        }
        String known = KOTLIN_NAMES.get(key);
        return known != null ? known : type.getSimpleName();
    }
}
