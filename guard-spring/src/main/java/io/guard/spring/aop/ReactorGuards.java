package io.guard.spring.aop;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * {@link ReactiveGuards} on Reactor. Everything happens per subscription, so a re-subscribed (retried) publisher
 * asks the limits and the breaker again. The breaker hears exactly one outcome per permission: the first of value,
 * completion, error or cancel.
 */
final class ReactorGuards implements ReactiveGuards {

    @Override
    public Object limit(ReturnKind kind, Limiting limiting, List<LimitRequest> requests,
                        RateLimitDecisionSink assemblySink, RefusedCall refused, Proceed call) {
        Mono<Void> permits = Mono.deferContextual(context -> Mono.fromCompletionStage(() -> limiting.acquireAsync(
                        requests, context.getOrDefault(RateLimitDecisionSink.class, assemblySink))))
                .onErrorMap(Stages::unwrap);
        // Only the permits' refusal goes to the fallback: an error of the method's own publisher stays its outcome.
        Mono<Publisher<Object>> next = permits
                .then(Mono.fromSupplier(() -> publisher(call)))
                .onErrorResume(RateLimitExceededException.class, refusal -> Mono.just(answer(refused, refusal)));
        return kind == ReturnKind.MONO
                ? next.flatMap(Mono::from)
                : next.flatMapMany(Flux::from);
    }

    /** The fallback's publisher for a refusal, or the refusal itself when the limit has no fallback. */
    @SuppressWarnings("unchecked")
    private static Publisher<Object> answer(RefusedCall refused, RateLimitExceededException refusal) {
        try {
            Object fallback = refused.answer(refusal);
            return fallback == null ? Mono.empty() : (Publisher<Object>) fallback;
        } catch (Throwable failure) {
            return Mono.error(failure);
        }
    }

    @Override
    public Object protect(ReturnKind kind, Supplier<BreakerCall> breakerCalls, Proceed call) {
        return kind == ReturnKind.MONO
                ? Mono.defer(() -> Mono.from(protect(breakerCalls.get(), call, true)))
                : Flux.defer(() -> protect(breakerCalls.get(), call, false));
    }

    private static Publisher<Object> protect(BreakerCall breaker, Proceed call, boolean mono) {
        if (!breaker.tryAcquire()) {
            return recover(breaker, breaker.refusal(), true);
        }
        AtomicBoolean reported = new AtomicBoolean();
        Publisher<Object> source = publisher(call);
        Flux<Object> guarded = mono
                ? Mono.from(source).doOnSuccess(value -> {
                    if (reported.compareAndSet(false, true)) {
                        breaker.onValue(value);
                    }
                }).flux()
                : Flux.from(source).doOnComplete(() -> {
                    if (reported.compareAndSet(false, true)) {
                        breaker.onValue(null);
                    }
                });
        return guarded
                .onErrorResume(error -> reported.compareAndSet(false, true)
                        ? recover(breaker, error, breaker.onError(error)) : Flux.error(error))
                .doOnCancel(() -> {
                    if (reported.compareAndSet(false, true)) {
                        breaker.release();
                    }
                });
    }

    /** The fallback's publisher for {@code error}, or the error itself when there is no fallback for it. */
    @SuppressWarnings("unchecked")
    private static Publisher<Object> recover(BreakerCall breaker, Throwable error, boolean eligible) {
        try {
            Object fallback = breaker.recover(error, eligible);
            return fallback == null ? Mono.empty() : (Publisher<Object>) fallback;
        } catch (Throwable failure) {
            return Mono.error(failure);
        }
    }

    /** The method's publisher; an exception thrown while assembling it becomes an error signal. */
    @SuppressWarnings("unchecked")
    private static Publisher<Object> publisher(Proceed call) {
        try {
            Object result = call.proceed();
            return result == null ? Mono.empty() : (Publisher<Object>) result;
        } catch (Throwable error) {
            return Mono.error(error);
        }
    }
}
