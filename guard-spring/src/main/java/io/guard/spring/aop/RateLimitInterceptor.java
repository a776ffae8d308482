package io.guard.spring.aop;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The {@code @RateLimit} aspect: asks every limit of the method before the method runs. Plain and CompletionStage
 * methods are decided, and run, on the calling thread (which waits for the decision, and up to a limit's timeout);
 * Mono and Flux methods never block.
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
        return switch (guarded.returnKind()) {
            case SYNC -> {
                limiting.acquire(requests, sink);
                yield invocation.proceed();
            }
            case COMPLETION_STAGE -> {
                // Decided on the caller's thread, as Resilience4j does, so that the body runs there with its
                // thread-bound context (security, MDC, request scope, transaction); a refusal fails the stage.
                try {
                    limiting.acquire(requests, sink);
                } catch (RuntimeException refused) {
                    yield CompletableFuture.failedFuture(refused);
                }
                yield invocation.proceed();
            }
            case MONO, FLUX -> reactive.limit(guarded.returnKind(), limiting, requests, sink,
                    Invocations.repeatable(invocation));
        };
    }
}
