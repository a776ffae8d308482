package io.guard.spring.method;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The fallback overloads of one protected method, found and checked at start-up by {@link FallbackResolver}.
 *
 * <p>Selection for an error: among the overloads whose Throwable parameter accepts it, the one whose parameter type
 * is closest to the error's class (fewest superclass steps) wins; a tie prefers the overload that also takes the
 * call's arguments. An overload without a Throwable parameter takes any error no typed overload accepts. The choice
 * is cached per error class, so the search runs once per class, not once per call.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 */
public final class FallbackMethods {

    /** How a fallback takes its arguments. */
    enum Shape {
        /** The protected method's parameters. */
        ARGS,
        /** The protected method's parameters, then the error. */
        ARGS_AND_ERROR,
        /** Only the error. */
        ERROR
    }

    /**
     * One usable overload.
     *
     * @param callerSuspends whether the protected method is a Kotlin suspend function: its last argument is then its
     *                       {@code Continuation}, which the fallback's shape does not count
     */
    public record Fallback(Method method, Shape shape, boolean callerSuspends) {

        Class<?> errorType() {
            Class<?>[] parameters = Coroutines.parameterTypes(method);
            return shape == Shape.ARGS ? Throwable.class : parameters[parameters.length - 1];
        }

        /**
         * Calls the fallback on {@code target}; an exception it throws propagates as it is. A {@code suspend}
         * fallback answers a {@code Mono} of its result, run in the coroutine context of the call it answers.
         */
        public Object invoke(Object target, Object[] args, Throwable error) throws Throwable {
            Object[] callArgs = callerSuspends ? Arrays.copyOf(args, args.length - 1) : args;
            Object[] fallbackArgs = switch (shape) {
                case ARGS -> callArgs;
                case ERROR -> new Object[] {error};
                case ARGS_AND_ERROR -> {
                    Object[] extended = Arrays.copyOf(callArgs, callArgs.length + 1);
                    extended[callArgs.length] = error;
                    yield extended;
                }
            };
            if (callerSuspends && Coroutines.isSuspending(method)) {
                return SuspendingFallback.invoke(method, target, fallbackArgs, args[args.length - 1]);
            }
            try {
                return method.invoke(target, fallbackArgs);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    private final String methodName;
    private final List<Fallback> typed;
    private final Fallback untyped;
    private final ConcurrentMap<Class<?>, Optional<Fallback>> chosen = new ConcurrentHashMap<>();

    /**
     * @param typed   overloads that take the error
     * @param untyped the overload with exactly the protected method's parameters, or null
     */
    FallbackMethods(String methodName, List<Fallback> typed, Fallback untyped) {
        this.methodName = methodName;
        this.typed = List.copyOf(typed);
        this.untyped = untyped;
    }

    String methodName() {
        return methodName;
    }

    /** The overload that handles {@code error}, or empty when none accepts it. */
    public Optional<Fallback> select(Throwable error) {
        return chosen.computeIfAbsent(error.getClass(), this::closest);
    }

    /** Whether some overload would answer an error of {@code errorType}. */
    public boolean handles(Class<? extends Throwable> errorType) {
        return closest(errorType).isPresent();
    }

    private Optional<Fallback> closest(Class<?> errorType) {
        Fallback best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (Fallback candidate : typed) {
            if (!candidate.errorType().isAssignableFrom(errorType)) {
                continue;
            }
            int distance = distance(errorType, candidate.errorType());
            boolean better = distance < bestDistance
                    || (distance == bestDistance && candidate.shape() == Shape.ARGS_AND_ERROR);
            if (better) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return Optional.ofNullable(best != null ? best : untyped);
    }

    private static int distance(Class<?> from, Class<?> to) {
        int steps = 0;
        for (Class<?> c = from; c != null && c != to; c = c.getSuperclass()) {
            steps++;
        }
        return steps;
    }
}
