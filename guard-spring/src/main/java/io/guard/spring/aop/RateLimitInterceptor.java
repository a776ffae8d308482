package io.guard.spring.aop;

import io.guard.spring.ratelimit.CostCharges;
import io.guard.spring.ratelimit.LimitRequest;
import io.guard.spring.ratelimit.Limiting;
import io.guard.spring.method.GuardedMethod;
import io.guard.spring.method.GuardedMethods;
import io.guard.spring.method.LimitSpec;
import io.guard.spring.method.ReturnKind;
import io.guard.spring.observation.DecisionObservation;
import io.guard.spring.observation.GuardObservations;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import io.guard.spring.ratelimit.RateLimitDecisionSinks;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.request.CurrentRequest;
import io.guard.spring.request.CurrentRequests;
import io.micrometer.observation.Observation;
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
    private final Supplier<GuardObservations> observations;
    private final Supplier<CostCharges> charges;

    /**
     * Suppliers, so that the beans behind them are created on the first call, not while proxies are made;
     * {@code observations} answers null when decisions are not observed; {@code charges} is asked only by methods
     * whose limits charge a cost after the call.
     */
    RateLimitInterceptor(Supplier<GuardedMethods> methods, Supplier<Limiting> limiting, RateLimitDecisionSinks sinks,
                         ReactiveGuards reactive, Supplier<GuardObservations> observations,
                         Supplier<CostCharges> charges) {
        this.methodsSupplier = methods;
        this.limitingSupplier = limiting;
        this.sinks = sinks;
        this.reactive = reactive;
        this.observations = observations;
        this.charges = charges;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        GuardedMethods methods = methodsSupplier.get();
        Limiting limiting = limitingSupplier.get();
        Class<?> targetClass = Invocations.targetClass(invocation);
        GuardedMethod guarded = methods.get(invocation.getMethod(), targetClass);
        List<LimitSpec> limits = guarded.limits();
        if (limits.isEmpty()) {
            return invocation.proceed();
        }
        Object[] args = invocation.getArguments();
        Object target = invocation.getThis();
        // Plain and CompletionStage calls are evaluated here, where the servlet request is bound to the thread; it
        // is looked up only when some limit has an expression (the context is built lazily).
        Supplier<List<LimitRequest>> onThisThread = () -> limiting.requests(limits, args,
                () -> methods.contexts().forLimits(guarded.method(), args, target, targetClass,
                        CurrentRequests.ofCallingThread()));
        RateLimitDecisionSink sink = sinks.current();
        GuardObservations observing = observations.get();
        return switch (guarded.returnKind()) {
            case SYNC -> {
                DecisionObservation observed = observing == null ? null : observing.decision(guarded, null);
                List<LimitRequest> evaluated;
                try (Observation.Scope scope = observed == null ? null : observed.openScope()) {
                    evaluated = onThisThread.get();
                    limiting.acquire(evaluated, observed == null ? sink : observed.sink(sink));
                } catch (RateLimitExceededException refusal) {
                    RefusedCall refused = new RefusedCall(guarded, target, args);
                    end(observed, refusal, refused);
                    yield refused.answer(refusal);
                } catch (RuntimeException failure) {
                    end(observed, failure);
                    throw failure;
                }
                end(observed, null);
                yield guarded.charged()
                        ? charged(guarded, args, target, targetClass, evaluated).sync(invocation::proceed)
                        : invocation.proceed();
            }
            case COMPLETION_STAGE -> {
                // Decided on the caller's thread, as Resilience4j does, so that the body runs there with its
                // thread-bound context (security, MDC, request scope, transaction); a refusal goes to the refusing
                // limit's fallback, or fails the stage when it has none.
                DecisionObservation observed = observing == null ? null : observing.decision(guarded, null);
                List<LimitRequest> evaluated;
                try {
                    evaluated = onThisThread.get();
                } catch (RuntimeException failure) {
                    end(observed, failure);
                    throw failure;
                }
                try (Observation.Scope scope = observed == null ? null : observed.openScope()) {
                    limiting.acquire(evaluated, observed == null ? sink : observed.sink(sink));
                } catch (RateLimitExceededException refusal) {
                    RefusedCall refused = new RefusedCall(guarded, target, args);
                    end(observed, refusal, refused);
                    yield fallbackStage(refused, refusal);
                } catch (RuntimeException failure) {
                    end(observed, failure);
                    yield CompletableFuture.failedFuture(failure);
                }
                end(observed, null);
                yield guarded.charged()
                        ? charged(guarded, args, target, targetClass, evaluated).stage(invocation::proceed)
                        : invocation.proceed();
            }
            case MONO, FLUX, FLOW -> {
                Function<CurrentRequest, List<LimitRequest>> requests = request -> limiting.requests(guarded.limits(),
                        args, () -> methods.contexts().forLimits(guarded.method(), args, target, targetClass, request));
                boolean flow = guarded.returnKind() == ReturnKind.FLOW;
                // A servlet request is bound to this thread, so it is taken now; a WebFlux exchange only shows in
                // the subscription's context.
                Object limited = reactive.limit(flow ? ReturnKind.FLUX : guarded.returnKind(), limiting,
                        new DeferredRequests(requests, CurrentRequests.ofCallingThread(),
                                readsPrincipal(guarded.limits())),
                        sink, new RefusedCall(guarded, target, args),
                        flow ? Flows.publishing(Invocations.repeatable(invocation)) : Invocations.repeatable(invocation),
                        observing == null ? null : parent -> observing.decision(guarded, (Observation) parent),
                        guarded.charged() ? admitted -> charged(guarded, args, target, targetClass, admitted) : null);
                yield flow ? Flows.flow(limited) : limited;
            }
        };
    }

    private ChargedCall charged(GuardedMethod guarded, Object[] args, Object target, Class<?> targetClass,
                                List<LimitRequest> admitted) {
        return new ChargedCall(charges.get(), methodsSupplier.get().contexts(), guarded.method(), args, target,
                targetClass, admitted);
    }

    private static void end(DecisionObservation observed, Throwable outcome) {
        if (observed != null) {
            observed.end(outcome);
        }
    }

    /** Ends the observation of a refusal, saying whether the refusing limit's fallback answers it. */
    private static void end(DecisionObservation observed, RateLimitExceededException refusal, RefusedCall refused) {
        if (observed != null) {
            if (refused.fallsBack(refusal)) {
                observed.fallback();
            }
            observed.end(refusal);
        }
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
