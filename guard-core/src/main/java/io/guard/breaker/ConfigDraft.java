package io.guard.breaker;

import io.guard.breaker.CircuitBreakerConfig.SlidingWindowType;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * The values a {@link CircuitBreakerConfig.Builder} collects, starting from Resilience4j's defaults or from an
 * existing configuration; {@link #build()} hands them to the record, which validates them.
 */
final class ConfigDraft {

    float failureRateThreshold = 50f;
    float slowCallRateThreshold = 100f;
    Duration slowCallDurationThreshold = Duration.ofSeconds(60);
    SlidingWindowType slidingWindowType = SlidingWindowType.COUNT_BASED;
    int slidingWindowSize = 100;
    int minimumNumberOfCalls = 100;
    int permittedNumberOfCallsInHalfOpenState = 10;
    Duration waitDurationInOpenState = Duration.ofSeconds(60);
    double exponentialBackoffMultiplier = 1.0;
    Duration exponentialMaxWaitDurationInOpenState;
    boolean automaticTransitionFromOpenToHalfOpenEnabled;
    Duration maxWaitDurationInHalfOpenState = Duration.ZERO;
    List<Class<? extends Throwable>> recordExceptions = List.of();
    List<Class<? extends Throwable>> ignoreExceptions = List.of();
    Predicate<Throwable> recordExceptionPredicate;
    Predicate<Throwable> ignoreExceptionPredicate;
    Predicate<Object> recordResultPredicate;
    State initialState = State.CLOSED;
    State transitionToStateAfterWaitDuration = State.OPEN;
    double randomizedWaitFactor;
    IntFunction<Duration> waitIntervalFunctionInOpenState;
    BiFunction<Object, Throwable, TransitionCheck> transitionOnResult;
    Duration timeout = Duration.ZERO;
    boolean writableStackTraceEnabled;
    boolean ignoreExceptionsPrecedenceEnabled;
    Function<Clock, Long> currentTimestampFunction;
    TimeUnit timestampUnit;

    /** Resilience4j's defaults. */
    ConfigDraft() {
    }

    /** The values of {@code c}, to override some of them. */
    ConfigDraft(CircuitBreakerConfig c) {
        failureRateThreshold = c.failureRateThreshold();
        slowCallRateThreshold = c.slowCallRateThreshold();
        slowCallDurationThreshold = c.slowCallDurationThreshold();
        slidingWindowType = c.slidingWindowType();
        slidingWindowSize = c.slidingWindowSize();
        minimumNumberOfCalls = c.minimumNumberOfCalls();
        permittedNumberOfCallsInHalfOpenState = c.permittedNumberOfCallsInHalfOpenState();
        waitDurationInOpenState = c.waitDurationInOpenState();
        exponentialBackoffMultiplier = c.exponentialBackoffMultiplier();
        // A max copied without backoff would pin a later, longer wait-duration-in-open-state.
        exponentialMaxWaitDurationInOpenState = c.exponentialBackoffMultiplier() > 1.0
                ? c.exponentialMaxWaitDurationInOpenState() : null;
        automaticTransitionFromOpenToHalfOpenEnabled = c.automaticTransitionFromOpenToHalfOpenEnabled();
        maxWaitDurationInHalfOpenState = c.maxWaitDurationInHalfOpenState();
        recordExceptions = c.recordExceptions();
        ignoreExceptions = c.ignoreExceptions();
        recordExceptionPredicate = c.recordExceptionPredicate();
        ignoreExceptionPredicate = c.ignoreExceptionPredicate();
        recordResultPredicate = c.recordResultPredicate();
        initialState = c.initialState();
        transitionToStateAfterWaitDuration = c.transitionToStateAfterWaitDuration();
        randomizedWaitFactor = c.randomizedWaitFactor();
        waitIntervalFunctionInOpenState = c.waitIntervalFunctionInOpenState();
        transitionOnResult = c.transitionOnResult();
        timeout = c.timeout();
        writableStackTraceEnabled = c.writableStackTraceEnabled();
        ignoreExceptionsPrecedenceEnabled = c.ignoreExceptionsPrecedenceEnabled();
        currentTimestampFunction = c.currentTimestampFunction();
        timestampUnit = c.timestampUnit();
    }

    /**
     * Resilience4j's {@code slidingWindow(size, minimumCalls, type)}: checked at once, and a COUNT_BASED window's
     * minimum is capped at its size.
     */
    void slidingWindow(int size, int minimumCalls, SlidingWindowType type) {
        ConfigChecks.atLeastOne("sliding-window-size", size);
        ConfigChecks.atLeastOne("minimum-number-of-calls", minimumCalls);
        if (type == null) {
            throw new IllegalArgumentException("sliding-window-type must not be null");
        }
        slidingWindowSize = size;
        minimumNumberOfCalls = type == SlidingWindowType.COUNT_BASED ? Math.min(minimumCalls, size) : minimumCalls;
        slidingWindowType = type;
    }

    /** Null is refused here, as in Resilience4j, rather than read as "the default". */
    void transitionToStateAfterWaitDuration(State state) {
        if (state == null) {
            throw new IllegalArgumentException("transition-to-state-after-wait-duration must not be null: "
                    + "use OPEN or CLOSED");
        }
        transitionToStateAfterWaitDuration = state;
    }

    CircuitBreakerConfig build() {
        return new CircuitBreakerConfig(failureRateThreshold, slowCallRateThreshold, slowCallDurationThreshold,
                slidingWindowType, slidingWindowSize, minimumNumberOfCalls, permittedNumberOfCallsInHalfOpenState,
                waitDurationInOpenState, exponentialBackoffMultiplier, exponentialMaxWaitDurationInOpenState,
                automaticTransitionFromOpenToHalfOpenEnabled, maxWaitDurationInHalfOpenState, recordExceptions,
                ignoreExceptions, recordExceptionPredicate, ignoreExceptionPredicate, recordResultPredicate,
                initialState, transitionToStateAfterWaitDuration, randomizedWaitFactor,
                waitIntervalFunctionInOpenState, transitionOnResult, timeout, writableStackTraceEnabled,
                ignoreExceptionsPrecedenceEnabled, currentTimestampFunction, timestampUnit);
    }
}
