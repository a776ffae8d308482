package io.guard.breaker;

import io.guard.event.GuardEvent;

import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;

/**
 * Records one breaker's finished calls: classifies each outcome, publishes its event, records it in the current
 * state (or gives an ignored call's permission back) and asks transition-on-result about it.
 */
final class BreakerOutcomes {

    private final CircuitBreakerConfig config;
    private final Classifier classifier;
    private final BreakerEvents events;
    private final BreakerTransitions transitions;
    private final BiFunction<Object, Throwable, TransitionCheck> transitionOnResult;

    BreakerOutcomes(String name, CircuitBreakerConfig config, BreakerEvents events, BreakerTransitions transitions) {
        this.config = config;
        this.classifier = new Classifier(name, config);
        this.events = events;
        this.transitions = transitions;
        this.transitionOnResult = config.transitionOnResult();
    }

    void success(long durationNanos) {
        events.success(durationNanos);
        transitions.current().record(durationNanos, false);
    }

    /** A call that ran out of time: a failure, whatever the exception rules say. */
    void timeout(long durationNanos, TimeoutException error) {
        events.publish(GuardEvent.Type.ERROR, durationNanos, Map.of("error", error.getClass().getName(),
                "timeout", config.timeout().toString()));
        transitions.current().record(durationNanos, true);
        if (transitionOnResult != null) {
            checkTransition(null, error);
        }
    }

    /**
     * A call that threw; an ignored error gives its permission back to {@code granting}, the state that gave it.
     * Returns whether the error counted as a failure.
     */
    boolean error(BreakerState granting, long durationNanos, Throwable error) {
        Classifier.Verdict verdict = classifier.classify(error);
        switch (verdict) {
            case FAILURE -> {
                events.publish(GuardEvent.Type.ERROR, durationNanos, Map.of("error", error.getClass().getName()));
                transitions.current().record(durationNanos, true);
                if (transitionOnResult != null) {
                    checkTransition(null, error);
                }
            }
            case IGNORED -> {
                events.publish(GuardEvent.Type.IGNORED_ERROR, durationNanos,
                        Map.of("error", error.getClass().getName()));
                granting.release();
            }
            case SUCCESS -> {
                success(durationNanos);
                if (transitionOnResult != null) {
                    checkTransition(null, error);
                }
            }
        }
        return verdict == Classifier.Verdict.FAILURE;
    }

    boolean recordsAsFailure(Throwable error) {
        return classifier.classify(error) == Classifier.Verdict.FAILURE;
    }

    void result(long durationNanos, Object result) {
        if (classifier.resultIsFailure(result)) {
            events.publish(GuardEvent.Type.ERROR, durationNanos,
                    Map.of("result", result == null ? "null" : result.getClass().getName()));
            transitions.current().record(durationNanos, true);
            return;
        }
        success(durationNanos);
        if (transitionOnResult != null && result != null) {
            checkTransition(result, null);
        }
    }

    /**
     * Asks transition-on-result about one outcome, where Resilience4j asks it: a non-null result not recorded as a
     * failure, or a throwable that is not ignored (a timeout included); never a plain success. Only CLOSED acts on
     * the answer; HALF_OPEN decides by its trial calls, and the other states ignore it, as in Resilience4j.
     */
    private void checkTransition(Object result, Throwable error) {
        BreakerState from = transitions.current();
        if (!(from instanceof ClosedState)) {
            return;
        }
        TransitionCheck check = classifier.transitionCheck(transitionOnResult, result, error);
        if (check.open()) {
            transitions.openAfterCheck(from, check);
        }
    }
}
