package io.guard.spring.aop;

import io.guard.spring.method.GuardEvaluationContexts;
import io.guard.spring.method.GuardedMethod;
import io.guard.spring.method.GuardedMethods;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The {@code @CircuitBreaker} aspect: one permission per call, exactly one outcome per permission, and the fallback
 * for an open breaker or a recorded failure. Outcomes of CompletionStage, Mono and Flux methods are recorded when
 * they complete, not when the method returns. With a breaker timeout, an asynchronous call still running when it
 * passes is answered by the fallback (or fails with a {@code TimeoutException}) and its stage is cancelled.
 */
final class CircuitBreakerInterceptor implements MethodInterceptor {

    private final Supplier<GuardedMethods> methodsSupplier;
    private final ReactiveGuards reactive;

    /** A supplier, so that the breakers are created on the first call, not while proxies are made. */
    CircuitBreakerInterceptor(Supplier<GuardedMethods> methods, ReactiveGuards reactive) {
        this.methodsSupplier = methods;
        this.reactive = reactive;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        GuardedMethods methods = methodsSupplier.get();
        Class<?> targetClass = Invocations.targetClass(invocation);
        GuardedMethod guarded = methods.get(invocation.getMethod(), targetClass);
        if (guarded.breaker() == null) {
            return invocation.proceed();
        }
        Object target = invocation.getThis();
        Object[] args = invocation.getArguments();
        GuardEvaluationContexts contexts = methods.contexts();
        return switch (guarded.returnKind()) {
            case SYNC -> sync(new BreakerCall(guarded, target, targetClass, args, contexts), invocation);
            case COMPLETION_STAGE -> stage(new BreakerCall(guarded, target, targetClass, args, contexts), invocation);
            case MONO, FLUX -> reactive.protect(guarded.returnKind(),
                    () -> new BreakerCall(guarded, target, targetClass, args, contexts),
                    Invocations.repeatable(invocation));
        };
    }

    private static Object sync(BreakerCall call, MethodInvocation invocation) throws Throwable {
        if (!call.tryAcquire()) {
            return call.recover(call.refusal(), true);
        }
        Object value;
        try {
            value = invocation.proceed();
        } catch (Throwable error) {
            return call.recover(error, call.onError(error));
        }
        call.onValue(value);
        return value;
    }

    private static CompletionStage<?> stage(BreakerCall call, MethodInvocation invocation) {
        if (!call.tryAcquire()) {
            return recover(call, call.refusal(), true);
        }
        CompletionStage<?> stage;
        try {
            stage = Stages.asStage(invocation.proceed());
        } catch (Throwable error) {
            return recover(call, error, call.onError(error));
        }
        CompletableFuture<Object> result = new CompletableFuture<>();
        AtomicBoolean timedOut = new AtomicBoolean();
        call.whenTimedOut(error -> {
            timedOut.set(true);
            Stages.pipe(recover(call, error, true), result);
            cancel(stage);
        });
        stage.whenComplete((value, failure) -> {
            if (timedOut.get()) {
                return; // answered by the timeout: the late outcome is not recorded again, nor recovered twice
            }
            if (failure == null) {
                call.onValue(value);
                result.complete(value);
            } else {
                Throwable error = Stages.unwrap(failure);
                Stages.pipe(recover(call, error, call.onError(error)), result);
            }
        });
        return result;
    }

    /** Cancels the work behind a timed-out stage, as far as a {@link CompletableFuture} reaches it. */
    private static void cancel(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().cancel(true);
        } catch (UnsupportedOperationException e) {
            // a stage that cannot be converted offers no way to stop its work
        }
    }

    private static CompletionStage<?> recover(BreakerCall call, Throwable error, boolean eligible) {
        try {
            return Stages.asStage(call.recover(error, eligible));
        } catch (Throwable failure) {
            return CompletableFuture.failedFuture(failure);
        }
    }
}
