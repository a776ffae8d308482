package io.guard.breaker;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * Decides what an outcome means for the window. Never throws: a user predicate that throws gets the answer its
 * property documents, and a warning is logged once per breaker, so a buggy predicate can neither break the
 * call nor leak a HALF_OPEN permit. The same rules, as Resilience4j's combined predicates, back
 * {@link CircuitBreakerConfig#effectiveRecordExceptionPredicate()} and its ignore twin.
 */
final class Classifier {

    private static final Logger log = LoggerFactory.getLogger(Classifier.class);

    /** What a throwable means. */
    enum Verdict { FAILURE, SUCCESS, IGNORED }

    private final String breakerName;
    private final List<Class<? extends Throwable>> recordExceptions;
    private final List<Class<? extends Throwable>> ignoreExceptions;
    private final Predicate<Throwable> recordPredicate;
    private final Predicate<Throwable> ignorePredicate;
    private final Predicate<Object> resultPredicate;
    private final AtomicBoolean warned = new AtomicBoolean();

    Classifier(String breakerName, CircuitBreakerConfig config) {
        this.breakerName = breakerName;
        this.recordExceptions = config.recordExceptions();
        this.ignoreExceptions = config.ignoreExceptions();
        this.recordPredicate = config.recordExceptionPredicate() == CircuitBreakerConfig.RECORD_ALL
                ? null : config.recordExceptionPredicate();
        this.ignorePredicate = config.ignoreExceptionPredicate();
        this.resultPredicate = config.recordResultPredicate();
    }

    /**
     * Ignore wins over record. A throwable is a failure when it is an instance of a record-exceptions type or the
     * record predicate accepts it (Resilience4j's "or"); with neither configured every throwable is a failure,
     * {@link Error}s included. Anything else counts as a success.
     */
    Verdict classify(Throwable error) {
        if (instanceOfAny(error, ignoreExceptions) || test(ignorePredicate, error, false, "ignore-exception")) {
            return Verdict.IGNORED;
        }
        if (recordExceptions.isEmpty() && recordPredicate == null) {
            return Verdict.FAILURE;
        }
        boolean record = instanceOfAny(error, recordExceptions)
                || (recordPredicate != null && test(recordPredicate, error, true, "record-exception"));
        return record ? Verdict.FAILURE : Verdict.SUCCESS;
    }

    /** Whether a returned value counts as a failure; a throwing predicate counts as "not a failure". */
    boolean resultIsFailure(Object result) {
        return test(resultPredicate, result, false, "record-result");
    }

    /** Asks a transition-on-result check; one that throws or returns null means "no transition". */
    TransitionCheck transitionCheck(java.util.function.BiFunction<Object, Throwable, TransitionCheck> check,
                                    Object result, Throwable error) {
        try {
            TransitionCheck answer = check.apply(result, error);
            return answer != null ? answer : TransitionCheck.noTransition();
        } catch (Throwable e) {
            if (warned.compareAndSet(false, true)) {
                log.warn("Circuit breaker '{}': the transition-on-result check threw {}; treating it as no transition "
                        + "(logged once)", breakerName, e, e);
            }
            return TransitionCheck.noTransition();
        }
    }

    /** See {@link CircuitBreakerConfig#effectiveRecordExceptionPredicate()}: the record rules as one predicate. */
    static Predicate<Throwable> recordPredicate(CircuitBreakerConfig config) {
        Predicate<Throwable> record;
        Predicate<Throwable> configured = config.recordExceptionPredicate();
        if (config.recordExceptions().isEmpty() && configured == CircuitBreakerConfig.RECORD_ALL) {
            record = CircuitBreakerConfig.RECORD_ALL;
        } else {
            Predicate<Throwable> byType = t -> instanceOfAny(t, config.recordExceptions());
            record = configured == CircuitBreakerConfig.RECORD_ALL ? byType : byType.or(configured);
        }
        return config.ignoreExceptionsPrecedenceEnabled() ? ignorePredicate(config).negate().and(record) : record;
    }

    /** See {@link CircuitBreakerConfig#effectiveIgnoreExceptionPredicate()}: the ignore rules as one predicate. */
    static Predicate<Throwable> ignorePredicate(CircuitBreakerConfig config) {
        Predicate<Throwable> byType = t -> instanceOfAny(t, config.ignoreExceptions());
        return byType.or(config.ignoreExceptionPredicate());
    }

    private static boolean instanceOfAny(Throwable error, List<Class<? extends Throwable>> types) {
        for (Class<? extends Throwable> type : types) {
            if (type.isInstance(error)) {
                return true;
            }
        }
        return false;
    }

    private <T> boolean test(Predicate<T> predicate, T value, boolean onThrow, String property) {
        try {
            return predicate.test(value);
        } catch (Throwable e) {
            if (warned.compareAndSet(false, true)) {
                log.warn("Circuit breaker '{}': the {} predicate threw {} for {}; treating it as {} (logged once)",
                        breakerName, property, e, value == null ? "null" : value.getClass().getName(), onThrow, e);
            }
            return onThrow;
        }
    }
}
