package io.guard.spring.aop;

import io.guard.spring.method.GuardEvaluationContexts;
import io.guard.spring.method.GuardedMethod;
import io.guard.spring.method.GuardedMethods;
import io.guard.spring.method.ReturnKind;
import io.guard.spring.observation.BreakerObservation;
import io.guard.spring.observation.GuardObservations;
import io.micrometer.observation.Observation;
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
 * passes is answered by the fallback (or fails with a {@code TimeoutException}) and its stage is cancelled. A caller
 * that cancels the future it got cancels the method's own and gives back the breaker's and the bulkhead's permits.
 * Kotlin suspend functions are guarded as Monos (see {@link ReturnKind}), Flows as Fluxes.
 */
final class CircuitBreakerInterceptor implements MethodInterceptor {

    private final Supplier<GuardedMethods> methodsSupplier;
    private final ReactiveGuards reactive;
    private final Supplier<GuardObservations> observations;

    /**
     * A supplier, so that the breakers are created on the first call, not while proxies are made;
     * {@code observations} answers null when calls are not observed.
     */
    CircuitBreakerInterceptor(Supplier<GuardedMethods> methods, ReactiveGuards reactive,
                              Supplier<GuardObservations> observations) {
        this.methodsSupplier = methods;
        this.reactive = reactive;
        this.observations = observations;
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
        GuardObservations observing = observations.get();
        return switch (guarded.returnKind()) {
            case SYNC -> observing == null ? sync(new BreakerCall(guarded, target, targetClass, args, contexts), invocation)
                    : observedSync(new BreakerCall(guarded, target, targetClass, args, contexts)
                    .observedBy(observing.breakerCall(guarded, null)), invocation);
            case COMPLETION_STAGE -> observing == null
                    ? stage(new BreakerCall(guarded, target, targetClass, args, contexts), invocation)
                    : observedStage(new BreakerCall(guarded, target, targetClass, args, contexts)
                    .observedBy(observing.breakerCall(guarded, null)), invocation);
            case MONO, FLUX -> reactive.protect(guarded.returnKind(),
                    () -> new BreakerCall(guarded, target, targetClass, args, contexts),
                    Invocations.repeatable(invocation),
                    observing == null ? null : parent -> observing.breakerCall(guarded, (Observation) parent));
            case FLOW -> Flows.flow(reactive.protect(ReturnKind.FLUX,
                    () -> new BreakerCall(guarded, target, targetClass, args, contexts),
                    Flows.publishing(Invocations.repeatable(invocation)),
                    observing == null ? null : parent -> observing.breakerCall(guarded, (Observation) parent)));
        };
    }

    /** {@link #sync} inside the call's observation, which is the parent of whatever the method observes. */
    private static Object observedSync(BreakerCall call, MethodInvocation invocation) throws Throwable {
        BreakerObservation observed = call.observed();
        if (observed == null) {
            return sync(call, invocation);
        }
        Throwable thrown = null;
        try (Observation.Scope scope = observed.observation().openScope()) {
            return sync(call, invocation);
        } catch (Throwable error) {
            thrown = error;
            throw error;
        } finally {
            observed.stop(thrown);
        }
    }

    /** {@link #stage} inside the call's observation, stopped when the caller's stage completes. */
    private static CompletionStage<?> observedStage(BreakerCall call, MethodInvocation invocation) {
        BreakerObservation observed = call.observed();
        if (observed == null) {
            return stage(call, invocation);
        }
        CompletionStage<?> result;
        try (Observation.Scope scope = observed.observation().openScope()) {
            result = stage(call, invocation);
        }
        result.whenComplete((value, error) -> observed.stop(error == null ? null : Stages.unwrap(error)));
        return result;
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
            cancel(stage); // before the fallback, which may take its time
            Stages.pipe(recover(call, error, true), result);
        });
        result.whenComplete((value, failure) -> {
            if (result.isCancelled()) { // the caller gave up: so does the method, and its permits go back
                call.release();
                cancel(stage);
            }
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
