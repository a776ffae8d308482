package io.guard.spring.aop;

import io.guard.breaker.CallNotPermittedException;
import io.guard.breaker.CircuitBreaker;
import org.springframework.expression.EvaluationContext;

import java.util.Optional;
import java.util.concurrent.CancellationException;

/**
 * One call through a breaker, whatever the return type: takes the permission, reports exactly one outcome for it,
 * and runs the fallback when the outcome calls for one.
 *
 * <p>Rate-limit refusals inside the breaker (when the aspect order is changed) give the permission back without an
 * outcome: a 429 says nothing about the downstream's health. A cancelled call gives it back too.
 */
final class BreakerCall {

    private final BreakerSpec spec;
    private final CircuitBreaker breaker;
    private final GuardedMethod guarded;
    private final Object target;
    private final Class<?> targetClass;
    private final Object[] args;
    private final GuardEvaluationContexts contexts;
    private long startNanos;

    /** @param contexts builds this call's evaluation context, only when {@code recordResult} needs one */
    BreakerCall(GuardedMethod guarded, Object target, Class<?> targetClass, Object[] args,
                GuardEvaluationContexts contexts) {
        this.spec = guarded.breaker();
        this.breaker = spec.breaker();
        this.guarded = guarded;
        this.target = target;
        this.targetClass = targetClass;
        this.args = args;
        this.contexts = contexts;
    }

    /** Asks for a permission and, when granted, starts the clock. */
    boolean tryAcquire() {
        if (!breaker.tryAcquirePermission()) {
            return false;
        }
        startNanos = breaker.currentTimeNanos();
        return true;
    }

    CallNotPermittedException refusal() {
        return new CallNotPermittedException(breaker.name(), breaker.state(), breaker.remainingOpenTime());
    }

    /** Reports a returned value: a failure if {@code recordResult} says so, else as the breaker's config decides. */
    void onValue(Object value) {
        long duration = breaker.currentTimeNanos() - startNanos;
        if (spec.recordResult() != null && recordsAsFailure(value)) {
            breaker.onError(duration, new ResultRecordedAsFailureException(breaker.name(),
                    spec.recordResult().getExpressionString()));
        } else {
            breaker.onResult(duration, value);
        }
    }

    private boolean recordsAsFailure(Object value) {
        EvaluationContext context = contexts.forResult(guarded.method(), args, target, targetClass, value);
        try {
            return Boolean.TRUE.equals(spec.recordResult().getValue(context, Boolean.class));
        } catch (RuntimeException e) {
            // Like a throwing result predicate in the core: an expression that cannot decide is not a failure.
            return false;
        }
    }

    /** Gives the permission back without an outcome (cancelled). */
    void release() {
        breaker.releasePermission();
    }

    /**
     * Reports an error and returns whether it may go to the fallback: recorded failures may; ignored errors,
     * rate-limit refusals and cancellations may not.
     */
    boolean onError(Throwable error) {
        if (error instanceof RateLimitExceededException || error instanceof MissingRateLimitKeyException
                || error instanceof CancellationException) {
            breaker.releasePermission();
            return false;
        }
        breaker.onError(breaker.currentTimeNanos() - startNanos, error);
        return breaker.recordsAsFailure(error);
    }

    /** The fallback for {@code error}, if the annotation names one and one of its overloads accepts the error. */
    Optional<FallbackMethods.Fallback> fallbackFor(Throwable error) {
        return spec.fallback() == null ? Optional.empty() : spec.fallback().select(error);
    }

    /** Runs {@code fallback} with this call's arguments and {@code error}. */
    Object runFallback(FallbackMethods.Fallback fallback, Throwable error) throws Throwable {
        return fallback.invoke(target, args, error);
    }

    /** The fallback's answer to {@code error} when there is one, else {@code error} rethrown. */
    Object recover(Throwable error, boolean eligible) throws Throwable {
        Optional<FallbackMethods.Fallback> fallback = eligible ? fallbackFor(error) : Optional.empty();
        if (fallback.isEmpty()) {
            throw error;
        }
        return runFallback(fallback.get(), error);
    }
}
