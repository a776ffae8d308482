package io.guard.spring.aop;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The {@code @RateLimit} aspect: asks every limit of the method before the method runs, and answers a refusal with
 * the refusing limit's fallback when it names one. Plain methods wait (only when a limit has a timeout) on the
 * calling thread; CompletionStage, Mono and Flux methods never block.
 */
final class RateLimitInterceptor implements MethodInterceptor {

    private final Supplier<GuardedMethods> methodsSupplier;
    private final Supplier<Limiting> limitingSupplier;
    private final RateLimitDecisionSinks sinks;
    private final ReactiveGuards reactive;

    /** Suppliers, so that the beans behind them are created on the first call, not while proxies are made. */
    RateLimitInterceptor(Supplier<GuardedMethods> methods, Supplier<Limiting> limiting, RateLimitDecisionSinks sinks,
                         ReactiveGuards reactive) {
        this.methodsSupplier = methods;
        this.limitingSupplier = limiting;
        this.sinks = sinks;
        this.reactive = reactive;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        GuardedMethods methods = methodsSupplier.get();
        Limiting limiting = limitingSupplier.get();
        Class<?> targetClass = Invocations.targetClass(invocation);
        GuardedMethod guarded = methods.get(invocation.getMethod(), targetClass);
        if (guarded.limits().isEmpty()) {
            return invocation.proceed();
        }
        Object[] args = invocation.getArguments();
        List<LimitRequest> requests = limiting.requests(guarded.limits(),
                () -> methods.contexts().forCall(guarded.method(), args, invocation.getThis(), targetClass));
        RateLimitDecisionSink sink = sinks.current();
        RefusedCall refused = new RefusedCall(guarded, invocation.getThis(), args);
        return switch (guarded.returnKind()) {
            case SYNC -> {
                try {
                    limiting.acquire(requests, sink);
                } catch (RateLimitExceededException refusal) {
                    yield refused.answer(refusal);
                }
                yield invocation.proceed();
            }
            case COMPLETION_STAGE -> stage(limiting, invocation, requests, sink, refused);
            case MONO, FLUX -> reactive.limit(guarded.returnKind(), limiting, requests, sink, refused,
                    Invocations.repeatable(invocation));
        };
    }

    private static CompletableFuture<Object> stage(Limiting limiting, MethodInvocation invocation,
                                                   List<LimitRequest> requests, RateLimitDecisionSink sink,
                                                   RefusedCall refused) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        CompletableFuture<Void> permits = limiting.acquireAsync(requests, sink).toCompletableFuture();
        if (permits.isDone()) {
            proceedWhenPermitted(invocation, permits, result, refused);
        } else {
            // The limiter may complete on an I/O thread (Redis), which must not run application code.
            permits.whenCompleteAsync((ignored, error) -> proceedWhenPermitted(invocation, permits, result, refused));
        }
        return result;
    }

    private static void proceedWhenPermitted(MethodInvocation invocation, CompletableFuture<Void> permits,
                                             CompletableFuture<Object> result, RefusedCall refused) {
        try {
            permits.join();
        } catch (RuntimeException failure) {
            Throwable error = Stages.unwrap(failure);
            if (error instanceof RateLimitExceededException refusal) {
                pipe(() -> refused.answer(refusal), result);
            } else {
                result.completeExceptionally(error);
            }
            return;
        }
        pipe(invocation::proceed, result);
    }

    /** Completes {@code result} as the stage {@code call} returns completes, or with what it throws. */
    private static void pipe(Proceed call, CompletableFuture<Object> result) {
        try {
            Stages.pipe(Stages.asStage(call.proceed()), result);
        } catch (Throwable error) {
            result.completeExceptionally(error);
        }
    }
}
