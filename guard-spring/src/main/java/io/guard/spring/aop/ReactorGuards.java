package io.guard.spring.aop;

import io.guard.spring.ratelimit.LimitRequest;
import io.guard.spring.ratelimit.Limiting;
import io.guard.spring.method.ReturnKind;
import io.guard.spring.observation.BreakerObservation;
import io.guard.spring.observation.CircuitBreakerObservationContext;
import io.guard.spring.observation.DecisionObservation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.request.CurrentRequest;
import io.guard.spring.request.ExchangeRequests;
import org.reactivestreams.Publisher;
import org.springframework.util.ClassUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@link ReactiveGuards} on Reactor. The method's publisher is subscribed on the subscribing thread when the limits
 * decided at once, else on {@code Schedulers.boundedElastic()}, never on the limiter's I/O thread. Everything happens
 * per subscription, so a re-subscribed (retried) publisher asks the limits and the breaker again; keys are evaluated
 * then too, with the WebFlux exchange the subscription's context carries (see {@link ExchangeRequests}). The breaker
 * hears exactly one outcome per permission: the first of value, completion, error or cancel; a Flux cancelled after
 * it emitted counts as a success.
 */
final class ReactorGuards implements ReactiveGuards {

    /** Whether WebFlux's exchange type is there to be looked up in the Reactor context. */
    private final boolean exchanges = ClassUtils.isPresent("org.springframework.web.server.ServerWebExchange",
            ReactorGuards.class.getClassLoader());

    @Override
    public Object limit(ReturnKind kind, Limiting limiting, DeferredRequests requests,
                        RateLimitDecisionSink assemblySink, RefusedCall refused, Proceed call,
                        Function<Object, DecisionObservation> observe) {
        Mono<Void> permits = Mono.deferContextual(context -> {
            RateLimitDecisionSink sink = context.getOrDefault(RateLimitDecisionSink.class, assemblySink);
            DecisionObservation observed = observe == null ? null
                    : observe.apply(context.getOrDefault(ObservationThreadLocalAccessor.KEY, null));
            Mono<Void> decision = Mono.defer(() -> decide(limiting, requests, context,
                    observed == null ? sink : observed.sink(sink), observed));
            return observed == null ? decision : decision
                    .doOnSuccess(ignored -> observed.end(null))
                    .doOnError(error -> {
                        Throwable failure = Stages.unwrap(error);
                        if (failure instanceof RateLimitExceededException refusal && refused.fallsBack(refusal)) {
                            observed.fallback();
                        }
                        observed.end(failure);
                    })
                    .doOnCancel(observed::cancelled);
        }).onErrorMap(Stages::unwrap);
        // Only the permits' refusal goes to the fallback: an error of the method's own publisher stays its outcome.
        Mono<Publisher<Object>> next = permits
                .then(Mono.fromSupplier(() -> publisher(call)))
                .onErrorResume(RateLimitExceededException.class, refusal -> Mono.just(answer(refused, refusal)));
        return kind == ReturnKind.MONO
                ? next.flatMap(Mono::from)
                : next.flatMapMany(Flux::from);
    }

    private Mono<Void> decide(Limiting limiting, DeferredRequests requests, ContextView context,
                              RateLimitDecisionSink sink, DecisionObservation observed) {
        Mono<CurrentRequest> exchange = requests.callingThread() == null && exchanges
                ? ExchangeRequests.find(context, requests.readsPrincipal()) : null;
        if (exchange == null) {
            return decide(limiting, requests.evaluate().apply(requests.callingThread()), sink, observed);
        }
        return exchange.flatMap(request -> decide(limiting, requests.evaluate().apply(request), sink, observed));
    }

    /** Asks the limits with the decision's observation current (see {@link DecisionObservation#openScope()}). */
    private static Mono<Void> decide(Limiting limiting, List<LimitRequest> requests, RateLimitDecisionSink sink,
                                     DecisionObservation observed) {
        CompletableFuture<Void> decided;
        try (Observation.Scope scope = observed == null ? null : observed.openScope()) {
            decided = limiting.acquireAsync(requests, sink).toCompletableFuture();
        }
        // A decision that is not known yet arrives on the limiter's thread (Redis's event loop), where the method's
        // body (or fallback) must not run: it could not even make a synchronous call to the same client there.
        return decided.isDone() ? Mono.fromFuture(decided)
                : Mono.fromFuture(decided).publishOn(Schedulers.boundedElastic());
    }

    /** The fallback's publisher for a refusal, or the refusal itself when the limit has no fallback. */
    private static Publisher<Object> answer(RefusedCall refused, RateLimitExceededException refusal) {
        Observation.Scope before = MethodScopes.current();
        try {
            return asPublisher(refused.answer(refusal));
        } catch (Throwable failure) {
            return Mono.error(failure);
        } finally {
            MethodScopes.closeOpenedSince(before);
        }
    }

    @Override
    public Object protect(ReturnKind kind, Supplier<BreakerCall> breakerCalls, Proceed call,
                          Function<Object, BreakerObservation> observe) {
        if (observe != null) {
            return kind == ReturnKind.MONO
                    ? Mono.deferContextual(context -> Mono.from(observed(breakerCalls.get(), call, true, observe
                            .apply(context.getOrDefault(ObservationThreadLocalAccessor.KEY, null)))))
                    : Flux.deferContextual(context -> observed(breakerCalls.get(), call, false, observe
                            .apply(context.getOrDefault(ObservationThreadLocalAccessor.KEY, null))));
        }
        return kind == ReturnKind.MONO
                ? Mono.defer(() -> Mono.from(protect(breakerCalls.get(), call, true)))
                : Flux.defer(() -> protect(breakerCalls.get(), call, false));
    }

    /**
     * {@link #protect(BreakerCall, Proceed, boolean)} as one observation, stopped when the subscriber has its
     * answer; the method's publisher finds it in its context, as the parent of what it observes.
     */
    private static Flux<Object> observed(BreakerCall breaker, Proceed call, boolean mono,
                                         BreakerObservation observed) {
        if (observed == null) {
            return Flux.from(protect(breaker, call, mono));
        }
        // doFinally runs once the answer is out (a cancel has reached the breaker by then): stopped once.
        AtomicReference<Throwable> failure = new AtomicReference<>();
        return Flux.from(protect(breaker.observedBy(observed), call, mono))
                .doOnError(failure::set)
                .doFinally(signal -> observed.stop(failure.get()))
                .contextWrite(context -> context.put(ObservationThreadLocalAccessor.KEY, observed.observation()));
    }

    private static Publisher<Object> protect(BreakerCall breaker, Proceed call, boolean mono) {
        if (!breaker.tryAcquire()) {
            return recover(breaker, breaker.refusal(), true);
        }
        AtomicBoolean reported = new AtomicBoolean();
        AtomicBoolean emitted = new AtomicBoolean();
        Publisher<Object> source = publisher(call);
        Flux<Object> guarded = mono
                ? Mono.from(source).doOnSuccess(value -> {
                    if (reported.compareAndSet(false, true)) {
                        breaker.onValue(value);
                    }
                }).flux()
                : Flux.from(source).doOnNext(value -> emitted.set(true)).doOnComplete(() -> {
                    if (reported.compareAndSet(false, true)) {
                        breaker.onValue(null);
                    }
                });
        if (!breaker.timeout().isZero()) {
            // One deadline for the whole publisher, on the breaker's clock: it fires once the permit times out
            // (recorded as a failure by then), and Reactor turns it into a TimeoutException and a cancellation.
            Mono<Boolean> deadline = Mono.<Boolean>create(sink -> breaker.whenTimedOut(e -> sink.success(true)))
                    .cache();
            guarded = guarded.timeout(deadline, item -> deadline);
        }
        return guarded
                .onErrorResume(error -> reported.compareAndSet(false, true)
                        ? recover(breaker, error, breaker.onError(error)) : Flux.error(error))
                .doOnCancel(() -> {
                    if (reported.compareAndSet(false, true)) {
                        // A Flux that delivered and was then cancelled (take(n), next()) worked, as in Resilience4j;
                        // one cancelled before it delivered anything says nothing and gives its permission back.
                        if (emitted.get()) {
                            breaker.onValue(null);
                        } else {
                            breaker.release();
                        }
                    }
                });
    }

    /** The fallback's publisher for {@code error}, or the error itself when there is no fallback for it. */
    private static Publisher<Object> recover(BreakerCall breaker, Throwable error, boolean eligible) {
        Observation.Scope before = MethodScopes.current();
        try {
            return asPublisher(breaker.recover(error, eligible));
        } catch (Throwable failure) {
            return Mono.error(failure);
        } finally {
            MethodScopes.closeOpenedSince(before);
        }
    }

    /**
     * A fallback's answer as a publisher: a Kotlin {@code Flow} adapted, and the plain value of a fallback that a
     * suspend function may declare without suspending.
     */
    @SuppressWarnings("unchecked")
    private static Publisher<Object> asPublisher(Object answer) {
        if (answer == null) {
            return Mono.empty();
        }
        if (answer instanceof Publisher<?> publisher) {
            return (Publisher<Object>) publisher;
        }
        return Flows.isFlow(answer) ? (Publisher<Object>) Flows.publisher(answer) : Mono.just(answer);
    }

    /**
     * The method's publisher; an exception thrown while assembling it becomes an error signal, and an observation
     * scope it leaves open is closed (see {@link MethodScopes}).
     */
    @SuppressWarnings("unchecked")
    private static Publisher<Object> publisher(Proceed call) {
        Observation.Scope before = MethodScopes.current();
        try {
            Object result = call.proceed();
            return result == null ? Mono.empty() : (Publisher<Object>) result;
        } catch (Throwable error) {
            return Mono.error(error);
        } finally {
            MethodScopes.closeOpenedSince(before);
        }
    }
}
