package io.guard.spring.aop;

import io.guard.spring.key.RateLimitKeyContext;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.ParameterNameDiscoverer;

import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The evaluation context of a rate-limited call: the method's parameters and, inside a web request, the request's
 * variables ({@link CurrentRequest#VARIABLES}), each read from the request only when an expression asks for it. A
 * parameter of the same name wins, so a handler that takes {@code Principal principal} keeps its meaning.
 */
final class CallEvaluationContext extends MethodBasedEvaluationContext {

    private final GuardExpressionRoot root;
    private final CurrentRequest request;
    private final Method method;
    private final ParameterNameDiscoverer parameterNames;

    /** @param request the web request of the call; null outside one (then the request variables are null) */
    CallEvaluationContext(GuardExpressionRoot root, Method method, Object[] args,
                          ParameterNameDiscoverer parameterNames, CurrentRequest request) {
        super(root, method, args, parameterNames);
        this.root = root;
        this.request = request;
        this.method = method;
        this.parameterNames = parameterNames;
    }

    @Override
    public Object lookupVariable(String name) {
        Object value = super.lookupVariable(name);
        if (value != null || request == null || !CurrentRequest.VARIABLES.contains(name) || isParameter(name)) {
            return value;
        }
        return request.variable(name);
    }

    private boolean isParameter(String name) {
        String[] names = parameterNames.getParameterNames(method);
        return names != null && Arrays.asList(names).contains(name);
    }

    /** The same call for a {@link io.guard.spring.key.RateLimitKeyResolver}. */
    RateLimitKeyContext keyContext() {
        return new CallKeyContext(root, request);
    }

    private record CallKeyContext(GuardExpressionRoot root, CurrentRequest request) implements RateLimitKeyContext {

        @Override
        public Method method() {
            return root.getMethod();
        }

        @Override
        public Object[] args() {
            return root.getArgs();
        }

        @Override
        public Object target() {
            return root.getTarget();
        }

        @Override
        public String clientIp() {
            return request == null ? null : request.clientIp();
        }

        @Override
        public String principal() {
            return request == null ? null : request.principal();
        }

        @Override
        public String header(String name) {
            return request == null ? null : request.headers().get(name);
        }

        @Override
        public <T> T nativeRequest(Class<T> type) {
            return request != null && type.isInstance(request.nativeRequest())
                    ? type.cast(request.nativeRequest()) : null;
        }
    }
}
