package io.guard.spring.aop;

import io.guard.breaker.CircuitBreakerConfig;

import java.util.List;
import java.util.function.Predicate;

/**
 * Tells whether a breaker's configuration records an error as a failure, which is when a fallback runs: ignored
 * errors and errors outside {@code record-exceptions} reach the caller unchanged, as the breaker does not count them
 * either. Mirrors the core's rules: ignore wins; with neither a record list nor a record predicate every throwable
 * is a failure; otherwise the list and the predicate are or-ed (as in Resilience4j).
 */
final class FailureClassifier {

    /** The record predicate of an unconfigured breaker (the core shares one instance). */
    private static final Predicate<Throwable> RECORD_ALL = CircuitBreakerConfig.ofDefaults().recordExceptionPredicate();

    private FailureClassifier() {
    }

    static boolean isRecordedFailure(CircuitBreakerConfig config, Throwable error) {
        if (instanceOfAny(error, config.ignoreExceptions()) || test(config.ignoreExceptionPredicate(), error, false)) {
            return false;
        }
        boolean defaultPredicate = config.recordExceptionPredicate() == RECORD_ALL;
        if (config.recordExceptions().isEmpty() && defaultPredicate) {
            return true;
        }
        return instanceOfAny(error, config.recordExceptions())
                || (!defaultPredicate && test(config.recordExceptionPredicate(), error, true));
    }

    private static boolean instanceOfAny(Throwable error, List<Class<? extends Throwable>> types) {
        return types.stream().anyMatch(type -> type.isInstance(error));
    }

    private static boolean test(Predicate<Throwable> predicate, Throwable error, boolean whenThrowing) {
        try {
            return predicate.test(error);
        } catch (RuntimeException e) {
            return whenThrowing;
        }
    }
}
