package io.guard.breaker;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * How a circuit breaker decides. The properties and their defaults are Resilience4j 2.x's, so that settings carry
 * over unchanged; rates are numbers (percent), never strings.
 *
 * <p>Immutable and validated: an invalid value throws {@link IllegalArgumentException} naming the property and the
 * value, so a typo in {@code application.yml} stops start-up rather than misbehaving under load.
 *
 * @param failureRateThreshold                  percentage of failed calls at or above which the breaker opens, in (0, 100]
 * @param slowCallRateThreshold                 percentage of slow calls at or above which the breaker opens, in (0, 100]
 * @param slowCallDurationThreshold             calls taking longer than this are slow; positive
 * @param slidingWindowType                     count-based ring of calls or time-based buckets of seconds
 * @param slidingWindowSize                     calls (COUNT_BASED) or seconds (TIME_BASED) in the window; at least 1
 * @param minimumNumberOfCalls                  calls needed before rates are computed; at least 1
 * @param permittedNumberOfCallsInHalfOpenState trial calls in HALF_OPEN; at least 1
 * @param waitDurationInOpenState               time in OPEN before a trial is allowed; at least 1 ms
 * @param exponentialBackoffMultiplier          each consecutive opening waits this much longer; 1 = no backoff; at least 1
 * @param exponentialMaxWaitDurationInOpenState cap on the backed-off wait; not below waitDurationInOpenState
 * @param automaticTransitionFromOpenToHalfOpenEnabled whether a timer moves OPEN to HALF_OPEN without waiting for a call
 * @param maxWaitDurationInHalfOpenState        HALF_OPEN goes back to OPEN after this long; zero = wait for the trial calls
 * @param recordExceptions                      exceptions counted as failures (with subclasses); when neither this
 *                                              nor the record predicate is set, every throwable ({@link Error}s
 *                                              too) is a failure; a throwable recorded by neither counts as a success
 * @param ignoreExceptions                      exceptions neither failures nor successes; ignore wins over record
 * @param recordExceptionPredicate              also records what it accepts (or-ed with {@code recordExceptions},
 *                                              as in Resilience4j); a throwing predicate counts as "record"
 * @param ignoreExceptionPredicate              further test for ignoring; a throwing predicate counts as "do not ignore"
 * @param recordResultPredicate                 results counted as failures; a throwing predicate counts as "not a failure"
 * @param initialState                          the state a new breaker starts in (and {@link CircuitBreaker#reset()}
 *                                              does not change: reset always goes to CLOSED, as in Resilience4j)
 * @param transitionToStateAfterWaitDuration    where a HALF_OPEN goes when max-wait-duration-in-half-open-state
 *                                              passes: OPEN (the default) or CLOSED
 * @param randomizedWaitFactor                  spreads each OPEN wait uniformly over wait * [1 - f, 1 + f], so that
 *                                              instances opened together do not probe together; in [0, 1), 0 = off
 * @param waitIntervalFunctionInOpenState       the OPEN wait of the n-th consecutive opening (n from 1); replaces
 *                                              the wait, backoff and randomization properties when set
 * @param transitionOnResult                    asked, as in Resilience4j, after a non-null result that is not
 *                                              recorded as a failure and after a throwable that is not ignored
 *                                              (one argument null, never both); may open a CLOSED breaker at once
 *                                              and is not asked in other states
 * @param timeout                               asynchronous calls still running after this long are completed
 *                                              with a {@link java.util.concurrent.TimeoutException}, cancelled and
 *                                              recorded as failures; zero = no timeout
 * @param writableStackTraceEnabled             whether {@link CallNotPermittedException}s carry a stack trace;
 *                                              false by default (Resilience4j: true), see the exception
 * @param ignoreExceptionsPrecedenceEnabled     whether {@link #effectiveRecordExceptionPredicate()} leaves out what
 *                                              the ignore rules match (Resilience4j's flag of the same name); the
 *                                              breaker itself lets ignore win either way
 * @param currentTimestampFunction              reads the breaker's time from the registry's clock (seen as a
 *                                              {@link Clock}) in {@code timestampUnit}, instead of its nanosecond
 *                                              reading: call durations, OPEN and HALF_OPEN waits and hung calls
 *                                              are then measured with it; null (the default) = the clock's
 * @param timestampUnit                         the unit of {@code currentTimestampFunction}'s readings
 */
public record CircuitBreakerConfig(
        float failureRateThreshold,
        float slowCallRateThreshold,
        Duration slowCallDurationThreshold,
        SlidingWindowType slidingWindowType,
        int slidingWindowSize,
        int minimumNumberOfCalls,
        int permittedNumberOfCallsInHalfOpenState,
        Duration waitDurationInOpenState,
        double exponentialBackoffMultiplier,
        Duration exponentialMaxWaitDurationInOpenState,
        boolean automaticTransitionFromOpenToHalfOpenEnabled,
        Duration maxWaitDurationInHalfOpenState,
        List<Class<? extends Throwable>> recordExceptions,
        List<Class<? extends Throwable>> ignoreExceptions,
        Predicate<Throwable> recordExceptionPredicate,
        Predicate<Throwable> ignoreExceptionPredicate,
        Predicate<Object> recordResultPredicate,
        State initialState,
        State transitionToStateAfterWaitDuration,
        double randomizedWaitFactor,
        IntFunction<Duration> waitIntervalFunctionInOpenState,
        BiFunction<Object, Throwable, TransitionCheck> transitionOnResult,
        Duration timeout,
        boolean writableStackTraceEnabled,
        boolean ignoreExceptionsPrecedenceEnabled,
        Function<Clock, Long> currentTimestampFunction,
        TimeUnit timestampUnit) {

    /** The record predicate when none is configured; the breaker then records every throwable. */
    static final Predicate<Throwable> RECORD_ALL = t -> true;

    /** Kinds of sliding window. */
    public enum SlidingWindowType { COUNT_BASED, TIME_BASED }

    public CircuitBreakerConfig {
        ConfigChecks.rate("failure-rate-threshold", failureRateThreshold);
        ConfigChecks.rate("slow-call-rate-threshold", slowCallRateThreshold);
        ConfigChecks.positive("slow-call-duration-threshold", slowCallDurationThreshold);
        Objects.requireNonNull(slidingWindowType, "sliding-window-type must not be null");
        ConfigChecks.atLeastOne("sliding-window-size", slidingWindowSize);
        ConfigChecks.atLeastOne("minimum-number-of-calls", minimumNumberOfCalls);
        ConfigChecks.atLeastOne("permitted-number-of-calls-in-half-open-state", permittedNumberOfCallsInHalfOpenState);
        ConfigChecks.waitInOpenState(waitDurationInOpenState);
        ConfigChecks.backoffMultiplier(exponentialBackoffMultiplier);
        exponentialMaxWaitDurationInOpenState = ConfigChecks.maxWaitInOpenState(exponentialMaxWaitDurationInOpenState,
                waitDurationInOpenState);
        ConfigChecks.notNegative("max-wait-duration-in-half-open-state", maxWaitDurationInHalfOpenState);
        recordExceptions = List.copyOf(recordExceptions == null ? List.of() : recordExceptions);
        ignoreExceptions = List.copyOf(ignoreExceptions == null ? List.of() : ignoreExceptions);
        recordExceptionPredicate = recordExceptionPredicate == null ? RECORD_ALL : recordExceptionPredicate;
        ignoreExceptionPredicate = ignoreExceptionPredicate == null ? t -> false : ignoreExceptionPredicate;
        recordResultPredicate = recordResultPredicate == null ? r -> false : recordResultPredicate;
        initialState = initialState == null ? State.CLOSED : initialState;
        transitionToStateAfterWaitDuration = ConfigChecks.stateAfterWait(transitionToStateAfterWaitDuration);
        ConfigChecks.randomizedWaitFactor(randomizedWaitFactor);
        timeout = timeout == null ? Duration.ZERO : timeout;
        ConfigChecks.notNegative("timeout", timeout);
        timestampUnit = ConfigChecks.timestampUnit(currentTimestampFunction, timestampUnit);
    }

    /**
     * How long the {@code attempt}-th consecutive opening (from 1) waits in OPEN: the custom function if set, else
     * wait-duration-in-open-state backed off by the multiplier (capped), then spread by the randomized wait factor.
     * Never below 1 ms.
     */
    public Duration waitDurationInOpenState(int attempt) {
        return OpenStateWait.of(this, attempt);
    }

    /**
     * Resilience4j's combined record predicate: true when {@code error} is an instance of a record-exceptions type
     * or the record predicate accepts it; true for everything when neither is configured; with
     * ignore-exceptions-precedence-enabled, false for what the ignore rules match. Whatever this says, the breaker
     * lets ignore win when both match (see {@link #effectiveIgnoreExceptionPredicate()}), as Resilience4j's does.
     */
    public Predicate<Throwable> effectiveRecordExceptionPredicate() {
        return Classifier.recordPredicate(this);
    }

    /** Resilience4j's combined ignore predicate: an instance of an ignore-exceptions type, or the ignore predicate. */
    public Predicate<Throwable> effectiveIgnoreExceptionPredicate() {
        return Classifier.ignorePredicate(this);
    }

    /** The Resilience4j defaults. */
    public static CircuitBreakerConfig ofDefaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration, for per-instance overrides on top of defaults. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds a {@link CircuitBreakerConfig}; unset properties keep Resilience4j's defaults. */
    public static final class Builder {
        private final ConfigDraft draft;

        private Builder() {
            this.draft = new ConfigDraft();
        }

        private Builder(CircuitBreakerConfig c) {
            this.draft = new ConfigDraft(c);
        }

        public Builder failureRateThreshold(float percent) { draft.failureRateThreshold = percent; return this; }

        public Builder slowCallRateThreshold(float percent) { draft.slowCallRateThreshold = percent; return this; }

        public Builder slowCallDurationThreshold(Duration d) { draft.slowCallDurationThreshold = d; return this; }

        public Builder slidingWindowType(SlidingWindowType t) { draft.slidingWindowType = t; return this; }

        public Builder slidingWindowSize(int size) { draft.slidingWindowSize = size; return this; }

        /**
         * The window in one step, as Resilience4j's {@code slidingWindow(size, minimumCalls, type)}: a COUNT_BASED
         * window's minimum is capped at its size.
         *
         * @throws IllegalArgumentException when {@code size} or {@code minimumNumberOfCalls} is below 1, or
         *                                  {@code type} is null
         */
        public Builder slidingWindow(int size, int minimumNumberOfCalls, SlidingWindowType type) {
            draft.slidingWindow(size, minimumNumberOfCalls, type);
            return this;
        }

        public Builder minimumNumberOfCalls(int n) { draft.minimumNumberOfCalls = n; return this; }

        public Builder permittedNumberOfCallsInHalfOpenState(int n) {
            draft.permittedNumberOfCallsInHalfOpenState = n;
            return this;
        }

        public Builder waitDurationInOpenState(Duration d) { draft.waitDurationInOpenState = d; return this; }

        /** Enables exponential backoff of the OPEN wait: multiplier per consecutive opening, capped at max. */
        public Builder exponentialBackoff(double multiplier, Duration max) {
            draft.exponentialBackoffMultiplier = multiplier;
            draft.exponentialMaxWaitDurationInOpenState = max;
            return this;
        }

        public Builder automaticTransitionFromOpenToHalfOpenEnabled(boolean enabled) {
            draft.automaticTransitionFromOpenToHalfOpenEnabled = enabled;
            return this;
        }

        public Builder maxWaitDurationInHalfOpenState(Duration d) { draft.maxWaitDurationInHalfOpenState = d; return this; }

        public Builder recordExceptions(List<Class<? extends Throwable>> types) { draft.recordExceptions = types; return this; }

        public Builder ignoreExceptions(List<Class<? extends Throwable>> types) { draft.ignoreExceptions = types; return this; }

        public Builder recordException(Predicate<Throwable> p) { draft.recordExceptionPredicate = p; return this; }

        public Builder ignoreException(Predicate<Throwable> p) { draft.ignoreExceptionPredicate = p; return this; }

        public Builder recordResult(Predicate<Object> p) { draft.recordResultPredicate = p; return this; }

        /** The state a new breaker starts in; CLOSED by default. */
        public Builder initialState(State state) { draft.initialState = state; return this; }

        /**
         * Where HALF_OPEN goes after max-wait-duration-in-half-open-state: OPEN (default) or CLOSED; null throws
         * {@link IllegalArgumentException}, as in Resilience4j.
         */
        public Builder transitionToStateAfterWaitDuration(State state) {
            draft.transitionToStateAfterWaitDuration(state);
            return this;
        }

        /** Spreads each OPEN wait over wait * [1 - factor, 1 + factor]; 0 turns it off. */
        public Builder randomizedWaitFactor(double factor) { draft.randomizedWaitFactor = factor; return this; }

        /** The OPEN wait of the n-th consecutive opening (n from 1), replacing wait, backoff and randomization. */
        public Builder waitIntervalFunctionInOpenState(IntFunction<Duration> function) {
            draft.waitIntervalFunctionInOpenState = function;
            return this;
        }

        /** Asked after each recorded outcome in CLOSED and HALF_OPEN: may open the breaker at once. */
        public Builder transitionOnResult(BiFunction<Object, Throwable, TransitionCheck> check) {
            draft.transitionOnResult = check;
            return this;
        }

        /** Completes asynchronous calls exceptionally after this long; zero (the default) = no timeout. */
        public Builder timeout(Duration timeout) { draft.timeout = timeout; return this; }

        /** Whether refusals ({@link CallNotPermittedException}) carry a stack trace; false by default. */
        public Builder writableStackTraceEnabled(boolean enabled) {
            draft.writableStackTraceEnabled = enabled;
            return this;
        }

        /**
         * Whether {@link CircuitBreakerConfig#effectiveRecordExceptionPredicate()} leaves out what the ignore rules
         * match; false by default. The breaker lets ignore win either way.
         */
        public Builder ignoreExceptionsPrecedenceEnabled(boolean enabled) {
            draft.ignoreExceptionsPrecedenceEnabled = enabled;
            return this;
        }

        /** {@code ignoreExceptionsPrecedenceEnabled(true)}. */
        public Builder enableIgnoreExceptionsPrecedence() {
            return ignoreExceptionsPrecedenceEnabled(true);
        }

        /**
         * Reads the breaker's time with {@code function} (given the registry's clock as a {@link Clock}), in
         * {@code unit}, for call durations, the OPEN and HALF_OPEN waits and hung calls; Resilience4j's
         * {@code currentTimestampFunction}. Null restores the clock's own nanosecond reading.
         */
        public Builder currentTimestampFunction(Function<Clock, Long> function, TimeUnit unit) {
            draft.currentTimestampFunction = function;
            draft.timestampUnit = unit;
            return this;
        }

        public CircuitBreakerConfig build() {
            return draft.build();
        }
    }
}
