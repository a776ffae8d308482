package io.guard.spring.method;

import java.lang.reflect.Method;

/**
 * {@code #root} of Guard's SpEL expressions: the call being guarded ({@code #root.methodName},
 * {@code #root.args[0]}, {@code #root.targetClass.simpleName}).
 */
final class GuardExpressionRoot {

    private final Method method;
    private final Object[] args;
    private final Object target;
    private final Class<?> targetClass;

    GuardExpressionRoot(Method method, Object[] args, Object target, Class<?> targetClass) {
        this.method = method;
        this.args = args;
        this.target = target;
        this.targetClass = targetClass;
    }

    /** The method being called. */
    public Method getMethod() {
        return method;
    }

    /** The method's name. */
    public String getMethodName() {
        return method.getName();
    }

    /** The arguments of this call. */
    public Object[] getArgs() {
        return args;
    }

    /** The object whose method is called. */
    public Object getTarget() {
        return target;
    }

    /** The user class of the target (never a proxy class). */
    public Class<?> getTargetClass() {
        return targetClass;
    }
}
