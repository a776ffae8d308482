package io.guard.spring.aop;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The {@code @RateLimit} aspect: asks every limit of the method before the method runs, and answers a refusal with
 * the refusing limit's fallback when it names one. Plain and CompletionStage methods are decided, and run, on the
 * calling thread (which waits for the decision, and up to a limit's timeout); Mono and Flux methods never block, and
 * evaluate their keys per subscription, where a WebFlux exchange can be found.
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
        Function<CurrentRequest, List<LimitRequest>> requests = request -> limiting.requests(guarded.limits(),
                () -> methods.contexts().forLimits(guarded.method(), args, invocation.getThis(), targetClass, request));
        // A servlet request is bound to this thread; a WebFlux exchange only shows in the subscription's context.
        CurrentRequest request = CurrentRequests.ofCallingThread();
        RateLimitDecisionSink sink = sinks.current();
        RefusedCall refused = new RefusedCall(guarded, invocation.getThis(), args);
        return switch (guarded.returnKind()) {
            case SYNC -> {
                List<LimitRequest> evaluated = requests.apply(request);
                try {
                    limiting.acquire(evaluated, sink);
                } catch (RateLimitExceededException refusal) {
                    yield refused.answer(refusal);
                }
                yield invocation.proceed();
            }
            case COMPLETION_STAGE -> {
                // Decided on the caller's thread, as Resilience4j does, so that the body runs there with its
                // thread-bound context (security, MDC, request scope, transaction); a refusal goes to the refusing
                // limit's fallback, or fails the stage when it has none.
                List<LimitRequest> evaluated = requests.apply(request);
                try {
                    limiting.acquire(evaluated, sink);
                } catch (RateLimitExceededException refusal) {
                    yield fallbackStage(refused, refusal);
                } catch (RuntimeException failure) {
                    yield CompletableFuture.failedFuture(failure);
                }
                yield invocation.proceed();
            }
            case MONO, FLUX -> reactive.limit(guarded.returnKind(), limiting,
                    new DeferredRequests(requests, request, readsPrincipal(guarded.limits())), sink, refused,
                    Invocations.repeatable(invocation));
        };
    }

    private static boolean readsPrincipal(List<LimitSpec> limits) {
        for (LimitSpec limit : limits) {
            if (limit.readsPrincipal()) {
                return true;
            }
        }
        return false;
    }

    /** The fallback's stage for a refusal; the refusal itself, or what the fallback throws, fails the stage. */
    private static CompletableFuture<Object> fallbackStage(RefusedCall refused, RateLimitExceededException refusal) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        try {
            Stages.pipe(Stages.asStage(refused.answer(refusal)), result);
        } catch (Throwable error) {
            result.completeExceptionally(error);
        }
        return result;
    }
}
