package io.guard.spring.method;

import io.guard.spring.key.RateLimitKeyContext;
import io.guard.spring.request.CurrentRequest;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.ParameterNameDiscoverer;

import java.lang.reflect.Method;

/**
 * The evaluation context of a rate-limited call: the method's parameters and, inside a web request, the request's
 * variables ({@link CurrentRequest#VARIABLES}), each read from the request only when an expression asks for it. A
 * parameter of the same name wins, so a handler that takes {@code Principal principal} keeps its meaning.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 */
public final class CallEvaluationContext extends MethodBasedEvaluationContext {

    private final GuardExpressionRoot root;
    private final CurrentRequest request;
    /**
     * Whether a parameter (or any variable set on this context) is named {@code #clientIp}, {@code #principal} or
     * {@code #headers}, noted as {@link MethodBasedEvaluationContext} binds the parameters, so that no lookup asks
     * the parameter-name discoverer again.
     */
    private boolean clientIpBound;
    private boolean principalBound;
    private boolean headersBound;

    /** @param request the web request of the call; null outside one (then the request variables are null) */
    CallEvaluationContext(GuardExpressionRoot root, Method method, Object[] args,
                          ParameterNameDiscoverer parameterNames, CurrentRequest request) {
        super(root, method, args, parameterNames);
        this.root = root;
        this.request = request;
    }

    @Override
    public void setVariable(String name, Object value) {
        super.setVariable(name, value);
        switch (name) {
            case CurrentRequest.CLIENT_IP -> clientIpBound = true;
            case CurrentRequest.PRINCIPAL -> principalBound = true;
            case CurrentRequest.HEADERS -> headersBound = true;
            default -> {
            }
        }
    }

    @Override
    public Object lookupVariable(String name) {
        // The parameters are bound by now (the superclass binds them all on the first lookup that misses).
        Object value = super.lookupVariable(name);
        if (value != null || request == null || bound(name)) {
            return value;
        }
        return request.variable(name);
    }

    /** Whether {@code name} is no request variable, or one a parameter of the same name hides (even when null). */
    private boolean bound(String name) {
        return switch (name) {
            case CurrentRequest.CLIENT_IP -> clientIpBound;
            case CurrentRequest.PRINCIPAL -> principalBound;
            case CurrentRequest.HEADERS -> headersBound;
            default -> true;
        };
    }

    /** The same call for a {@link io.guard.spring.key.RateLimitKeyResolver}. */
    public RateLimitKeyContext keyContext() {
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
