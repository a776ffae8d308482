package io.guard.spring.aop;

import io.guard.spring.method.CostSpec;
import io.guard.spring.method.GuardEvaluationContexts;
import io.guard.spring.ratelimit.CostCharges;
import io.guard.spring.ratelimit.LimitRequest;
import org.springframework.expression.EvaluationContext;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One admitted call of a method whose limits charge a cost after it ({@code @RateLimit(cost = ...)}): runs it, or
 * follows its stage, and charges what it consumed before the caller sees the outcome, so that the caller's next call
 * finds the charge made. The charge never changes the outcome: it is the method's value or exception.
 */
final class ChargedCall {

    private final CostCharges charges;
    private final GuardEvaluationContexts contexts;
    private final Method method;
    private final Object[] args;
    private final Object target;
    private final Class<?> targetClass;
    private final List<LimitRequest> admitted;

    ChargedCall(CostCharges charges, GuardEvaluationContexts contexts, Method method, Object[] args, Object target,
                Class<?> targetClass, List<LimitRequest> admitted) {
        this.charges = charges;
        this.contexts = contexts;
        this.method = method;
        this.args = args;
        this.target = target;
        this.targetClass = targetClass;
        this.admitted = admitted;
    }

    /** Runs a plain method, waits for the charge of its outcome, and returns its value or throws its exception. */
    Object sync(Proceed call) throws Throwable {
        Object result = run(call);
        returned(result).join();
        return result;
    }

    /**
     * Runs a {@code CompletionStage} method; the stage returned completes as the method's does, once its outcome
     * is charged. A method that throws instead of returning a stage is charged as a failure, and the exception
     * thrown on.
     */
    Object stage(Proceed call) throws Throwable {
        Object stage = run(call);
        CompletableFuture<Object> result = new CompletableFuture<>();
        Stages.asStage(stage).whenComplete((value, error) -> {
            Throwable failure = error == null ? null : Stages.unwrap(error);
            (failure == null ? returned(value) : threw(failure)).whenComplete((ignored, never) -> {
                if (failure == null) {
                    result.complete(value);
                } else {
                    result.completeExceptionally(failure);
                }
            });
        });
        return result;
    }

    /** Runs the method; one that throws is charged as a failure before its exception goes on. */
    private Object run(Proceed call) throws Throwable {
        try {
            return call.proceed();
        } catch (Throwable error) {
            threw(error).join();
            throw error;
        }
    }

    /** Charges a call that completed with {@code result}; never completes exceptionally. */
    CompletableFuture<Void> returned(Object result) {
        return charges.returned(admitted, () -> contexts.forResult(method, args, target, targetClass, result));
    }

    /** Charges a call that failed with {@code error}; never completes exceptionally. */
    CompletableFuture<Void> threw(Throwable error) {
        return charges.threw(admitted, () -> {
            EvaluationContext context = contexts.forResult(method, args, target, targetClass, null);
            context.setVariable(CostSpec.EXCEPTION, error);
            return context;
        });
    }
}
