package io.guard.spring.aop;

import io.guard.breaker.CallNotPermittedException;
import io.guard.breaker.CircuitBreaker;
import io.guard.bulkhead.Bulkhead;
import io.guard.refusal.Refusal;
import io.guard.spring.breaker.ResultRecordedAsFailureException;
import io.guard.spring.method.BreakerSpec;
import io.guard.spring.method.FallbackMethods;
import io.guard.spring.method.GuardEvaluationContexts;
import io.guard.spring.method.GuardedMethod;
import io.guard.spring.observation.BreakerObservation;
import io.guard.spring.observation.CircuitBreakerObservationContext.Outcome;
import org.springframework.expression.EvaluationContext;

import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One call through a breaker (and its bulkhead, if one is configured), whatever the return type: takes the permit,
 * reports exactly one outcome for it, gives the bulkhead permit back, and runs the fallback when the outcome calls
 * for one.
 *
 * <p>Rate-limit refusals inside the breaker (when the aspect order is changed) give the permission back without an
 * outcome: a 429 says nothing about the downstream's health. A cancelled call gives it back too. The breaker's
 * permit remembers the state that granted it, so a permission given back never reaches a later state.
 */
final class BreakerCall {

    private final BreakerSpec spec;
    private final CircuitBreaker breaker;
    private final Bulkhead bulkhead;
    private final GuardedMethod guarded;
    private final Object target;
    private final Class<?> targetClass;
    private final Object[] args;
    private final GuardEvaluationContexts contexts;
    private Bulkhead.Permit bulkheadPermit;
    private CircuitBreaker.Permit permit;
    private RuntimeException refusal;
    private BreakerObservation observed;

    /** @param contexts builds this call's evaluation context, only when {@code recordResult} needs one */
    BreakerCall(GuardedMethod guarded, Object target, Class<?> targetClass, Object[] args,
                GuardEvaluationContexts contexts) {
        this.spec = guarded.breaker();
        this.breaker = spec.breaker();
        this.bulkhead = spec.bulkhead();
        this.guarded = guarded;
        this.target = target;
        this.targetClass = targetClass;
        this.args = args;
        this.contexts = contexts;
    }

    /**
     * Asks the breaker, then the bulkhead, for a permit (Resilience4j's order: an open breaker refuses before the
     * bulkhead counts the call as permitted); on refusal {@link #refusal()} says which refused. A full bulkhead
     * gives the breaker's permission back without an outcome: it says nothing about the downstream.
     */
    boolean tryAcquire() {
        permit = breaker.tryAcquire();
        if (permit == null) {
            refusal = CallNotPermittedException.createCallNotPermittedException(breaker);
            if (observed != null) {
                observed.notPermitted(breaker.state(), breaker.remainingOpenTime());
            }
            return false;
        }
        if (observed != null) {
            observed.admitted(permit.state());
        }
        if (bulkhead != null) {
            bulkheadPermit = bulkhead.tryAcquire();
            if (bulkheadPermit == null) {
                permit.release();
                refusal = bulkhead.full();
                observe(Outcome.BULKHEAD_FULL);
                return false;
            }
        }
        return true;
    }

    /** Reports this call's steps to {@code observation} (null: not observed); before {@link #tryAcquire()}. */
    BreakerCall observedBy(BreakerObservation observation) {
        this.observed = observation;
        return this;
    }

    /** The call's observation, or null. */
    BreakerObservation observed() {
        return observed;
    }

    private void observe(Outcome outcome) {
        if (observed != null) {
            observed.outcome(outcome);
        }
    }

    /** Why {@link #tryAcquire()} returned false: an open breaker or a full bulkhead. */
    RuntimeException refusal() {
        return refusal;
    }

    /** The breaker's timeout for asynchronous calls; zero when there is none. */
    java.time.Duration timeout() {
        return breaker.config().timeout();
    }

    /**
     * Arms the breaker's timeout for an asynchronous call: when it passes first, the call is recorded as a failure,
     * the bulkhead permit is given back as a drop and {@code onTimeout} completes the caller's side (fallback or
     * error).
     */
    void whenTimedOut(Consumer<TimeoutException> onTimeout) {
        permit.whenTimedOut(error -> {
            observe(Outcome.TIMEOUT);
            if (bulkheadPermit != null) {
                bulkheadPermit.onDropped();
            }
            onTimeout.accept(error);
        });
    }

    /** Reports a returned value: a failure if {@code recordResult} says so, else as the breaker's config decides. */
    void onValue(Object value) {
        if (spec.recordResult() != null && recordsAsFailure(value)) {
            permit.onError(new ResultRecordedAsFailureException(breaker.name(),
                    spec.recordResult().getExpressionString()));
            observe(Outcome.FAILURE);
        } else {
            permit.onResult(value);
            observe(Outcome.SUCCESS);
        }
        if (bulkheadPermit != null) {
            bulkheadPermit.onSuccess(); // an answer, even one recorded as a failure: its latency is a sample
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
        observe(Outcome.RELEASED);
        permit.release();
        releaseBulkhead();
    }

    /**
     * Reports an error and returns whether it may go to the fallback: recorded failures (timeouts included) may;
     * ignored errors, rate-limit refusals and cancellations may not. A timeout is a drop for an adaptive bulkhead;
     * other errors give its permit back without a sample (a fast failure says nothing about the downstream's load).
     */
    boolean onError(Throwable error) {
        try {
            if (error instanceof Refusal refusal && !refusal.refusalKind().breakerOutcome()
                    || error instanceof CancellationException) {
                observe(Outcome.RELEASED);
                permit.release();
                return false;
            }
            if (error instanceof TimeoutException timeout && !timeout().isZero()) {
                observe(Outcome.TIMEOUT);
                if (bulkheadPermit != null) {
                    bulkheadPermit.onDropped();
                }
                permit.onTimeout(timeout);
                return true;
            }
            boolean failure = permit.onError(error);
            observe(failure ? Outcome.FAILURE : Outcome.IGNORED);
            return failure;
        } finally {
            releaseBulkhead();
        }
    }

    /** The permit counts once, whichever answer comes first (a timeout and a late completion may both arrive). */
    private void releaseBulkhead() {
        if (bulkheadPermit != null) {
            bulkheadPermit.release();
        }
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
        if (observed != null) {
            observed.fallback();
        }
        return runFallback(fallback.get(), error);
    }
}
