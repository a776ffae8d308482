package io.guard.spring.method;

import io.guard.spring.request.CurrentRequest;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.EvaluationContext;

import java.lang.reflect.Method;

/**
 * Builds the evaluation context of one call: parameters by name and index, {@code #root}, and {@code @bean}
 * references. Parameters are bound lazily by {@link MethodBasedEvaluationContext}, so a key that reads one
 * parameter does not pay for the others.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 */
public final class GuardEvaluationContexts {

    private final ParameterNameDiscoverer parameterNames;
    private final BeanResolver beanResolver;

    /** @param beanResolver resolves {@code @bean} references; null when there is no bean factory */
    GuardEvaluationContexts(ParameterNameDiscoverer parameterNames, BeanResolver beanResolver) {
        this.parameterNames = parameterNames;
        this.beanResolver = beanResolver;
    }

    EvaluationContext forCall(Method method, Object[] args, Object target, Class<?> targetClass) {
        var root = new GuardExpressionRoot(method, args, target, targetClass);
        var context = new MethodBasedEvaluationContext(root, method, args, parameterNames);
        if (beanResolver != null) {
            context.setBeanResolver(beanResolver);
        }
        return context;
    }

    /**
     * A context for the expressions of {@code @RateLimit}: the call's variables plus, inside a web request,
     * {@code #clientIp}, {@code #principal} and {@code #headers}.
     *
     * @param request the web request the call serves; null outside one
     */
    public CallEvaluationContext forLimits(Method method, Object[] args, Object target, Class<?> targetClass,
                                    CurrentRequest request) {
        var root = new GuardExpressionRoot(method, args, target, targetClass);
        var context = new CallEvaluationContext(root, method, args, parameterNames, request);
        if (beanResolver != null) {
            context.setBeanResolver(beanResolver);
        }
        return context;
    }

    /** A context for {@code recordResult}: the call's variables plus {@code #result}. */
    public EvaluationContext forResult(Method method, Object[] args, Object target, Class<?> targetClass,
                                       Object result) {
        EvaluationContext context = forCall(method, args, target, targetClass);
        context.setVariable("result", result);
        return context;
    }
}
