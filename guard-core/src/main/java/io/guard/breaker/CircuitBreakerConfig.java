package io.guard.breaker;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
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
        requireRate("failure-rate-threshold", failureRateThreshold);
        requireRate("slow-call-rate-threshold", slowCallRateThreshold);
        requirePositive("slow-call-duration-threshold", slowCallDurationThreshold);
        Objects.requireNonNull(slidingWindowType, "sliding-window-type must not be null");
        requireAtLeastOne("sliding-window-size", slidingWindowSize);
        requireAtLeastOne("minimum-number-of-calls", minimumNumberOfCalls);
        requireAtLeastOne("permitted-number-of-calls-in-half-open-state", permittedNumberOfCallsInHalfOpenState);
        requirePositive("wait-duration-in-open-state", waitDurationInOpenState);
        if (waitDurationInOpenState.toMillis() < 1) {
            throw new IllegalArgumentException("wait-duration-in-open-state must be at least 1ms but was "
                    + waitDurationInOpenState);
        }
        if (!(exponentialBackoffMultiplier >= 1.0) || Double.isInfinite(exponentialBackoffMultiplier)) {
            throw new IllegalArgumentException("exponential-backoff-multiplier must be a finite number >= 1 but was "
                    + exponentialBackoffMultiplier);
        }
        exponentialMaxWaitDurationInOpenState = exponentialMaxWaitDurationInOpenState == null
                ? waitDurationInOpenState : exponentialMaxWaitDurationInOpenState;
        if (exponentialMaxWaitDurationInOpenState.compareTo(waitDurationInOpenState) < 0) {
            throw new IllegalArgumentException("exponential-max-wait-duration-in-open-state must not be shorter than "
                    + "wait-duration-in-open-state (" + waitDurationInOpenState + ") but was "
                    + exponentialMaxWaitDurationInOpenState);
        }
        Objects.requireNonNull(maxWaitDurationInHalfOpenState, "max-wait-duration-in-half-open-state must not be null");
        if (maxWaitDurationInHalfOpenState.isNegative()) {
            throw new IllegalArgumentException("max-wait-duration-in-half-open-state must not be negative but was "
                    + maxWaitDurationInHalfOpenState);
        }
        recordExceptions = List.copyOf(recordExceptions == null ? List.of() : recordExceptions);
        ignoreExceptions = List.copyOf(ignoreExceptions == null ? List.of() : ignoreExceptions);
        recordExceptionPredicate = recordExceptionPredicate == null ? RECORD_ALL : recordExceptionPredicate;
        ignoreExceptionPredicate = ignoreExceptionPredicate == null ? t -> false : ignoreExceptionPredicate;
        recordResultPredicate = recordResultPredicate == null ? r -> false : recordResultPredicate;
        initialState = initialState == null ? State.CLOSED : initialState;
        transitionToStateAfterWaitDuration = transitionToStateAfterWaitDuration == null
                ? State.OPEN : transitionToStateAfterWaitDuration;
        if (transitionToStateAfterWaitDuration != State.OPEN && transitionToStateAfterWaitDuration != State.CLOSED) {
            throw new IllegalArgumentException("transition-to-state-after-wait-duration must be OPEN or CLOSED but was "
                    + transitionToStateAfterWaitDuration);
        }
        if (!(randomizedWaitFactor >= 0 && randomizedWaitFactor < 1)) {
            throw new IllegalArgumentException("randomized-wait-factor must be in [0, 1) but was "
                    + randomizedWaitFactor);
        }
        timeout = timeout == null ? Duration.ZERO : timeout;
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative but was " + timeout);
        }
        if (currentTimestampFunction != null && timestampUnit == null) {
            throw new IllegalArgumentException("current-timestamp-function needs a time unit, but it was null");
        }
        timestampUnit = timestampUnit == null ? TimeUnit.NANOSECONDS : timestampUnit;
    }

    /**
     * How long the {@code attempt}-th consecutive opening (from 1) waits in OPEN: the custom function if set, else
     * wait-duration-in-open-state backed off by the multiplier (capped), then spread by the randomized wait factor.
     * Never below 1 ms.
     */
    public Duration waitDurationInOpenState(int attempt) {
        if (waitIntervalFunctionInOpenState != null) {
            Duration wait = waitIntervalFunctionInOpenState.apply(attempt);
            if (wait == null || wait.toMillis() < 1) {
                throw new IllegalStateException("wait-interval-function-in-open-state returned " + wait
                        + " for attempt " + attempt + "; it must return at least 1ms");
            }
            return wait;
        }
        long nanos = waitDurationInOpenState.toNanos();
        if (exponentialBackoffMultiplier != 1.0 && attempt > 1) {
            double backedOff = nanos * Math.pow(exponentialBackoffMultiplier, attempt - 1);
            nanos = (long) Math.min(exponentialMaxWaitDurationInOpenState.toNanos(), backedOff);
        }
        if (randomizedWaitFactor > 0) {
            double spread = 1 + randomizedWaitFactor * (2 * ThreadLocalRandom.current().nextDouble() - 1);
            nanos = Math.max(1_000_000L, (long) (nanos * spread));
        }
        return Duration.ofNanos(nanos);
    }

    /**
     * Resilience4j's combined record predicate: true when {@code error} is an instance of a record-exceptions type
     * or the record predicate accepts it; true for everything when neither is configured; with
     * ignore-exceptions-precedence-enabled, false for what the ignore rules match. Whatever this says, the breaker
     * lets ignore win when both match (see {@link #effectiveIgnoreExceptionPredicate()}), as Resilience4j's does.
     */
    public Predicate<Throwable> effectiveRecordExceptionPredicate() {
        Predicate<Throwable> record;
        if (recordExceptions.isEmpty() && recordExceptionPredicate == RECORD_ALL) {
            record = RECORD_ALL;
        } else {
            Predicate<Throwable> byType = t -> recordExceptions.stream().anyMatch(type -> type.isInstance(t));
            record = recordExceptionPredicate == RECORD_ALL ? byType : byType.or(recordExceptionPredicate);
        }
        return ignoreExceptionsPrecedenceEnabled ? effectiveIgnoreExceptionPredicate().negate().and(record) : record;
    }

    /** Resilience4j's combined ignore predicate: an instance of an ignore-exceptions type, or the ignore predicate. */
    public Predicate<Throwable> effectiveIgnoreExceptionPredicate() {
        Predicate<Throwable> byType = t -> ignoreExceptions.stream().anyMatch(type -> type.isInstance(t));
        return byType.or(ignoreExceptionPredicate);
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

    private static void requireRate(String property, float value) {
        if (!(value > 0f && value <= 100f)) {
            throw new IllegalArgumentException(property + " must be in (0, 100] but was " + value);
        }
    }

    private static void requirePositive(String property, Duration value) {
        Objects.requireNonNull(value, property + " must not be null");
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(property + " must be positive but was " + value);
        }
    }

    private static void requireAtLeastOne(String property, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(property + " must be at least 1 but was " + value);
        }
    }

    /** Builds a {@link CircuitBreakerConfig}; unset properties keep Resilience4j's defaults. */
    public static final class Builder {
        private float failureRateThreshold = 50f;
        private float slowCallRateThreshold = 100f;
        private Duration slowCallDurationThreshold = Duration.ofSeconds(60);
        private SlidingWindowType slidingWindowType = SlidingWindowType.COUNT_BASED;
        private int slidingWindowSize = 100;
        private int minimumNumberOfCalls = 100;
        private int permittedNumberOfCallsInHalfOpenState = 10;
        private Duration waitDurationInOpenState = Duration.ofSeconds(60);
        private double exponentialBackoffMultiplier = 1.0;
        private Duration exponentialMaxWaitDurationInOpenState;
        private boolean automaticTransitionFromOpenToHalfOpenEnabled;
        private Duration maxWaitDurationInHalfOpenState = Duration.ZERO;
        private List<Class<? extends Throwable>> recordExceptions = List.of();
        private List<Class<? extends Throwable>> ignoreExceptions = List.of();
        private Predicate<Throwable> recordExceptionPredicate;
        private Predicate<Throwable> ignoreExceptionPredicate;
        private Predicate<Object> recordResultPredicate;
        private State initialState = State.CLOSED;
        private State transitionToStateAfterWaitDuration = State.OPEN;
        private double randomizedWaitFactor;
        private IntFunction<Duration> waitIntervalFunctionInOpenState;
        private BiFunction<Object, Throwable, TransitionCheck> transitionOnResult;
        private Duration timeout = Duration.ZERO;
        private boolean writableStackTraceEnabled;
        private boolean ignoreExceptionsPrecedenceEnabled;
        private Function<Clock, Long> currentTimestampFunction;
        private TimeUnit timestampUnit;

        private Builder() {
        }

        private Builder(CircuitBreakerConfig c) {
            failureRateThreshold = c.failureRateThreshold;
            slowCallRateThreshold = c.slowCallRateThreshold;
            slowCallDurationThreshold = c.slowCallDurationThreshold;
            slidingWindowType = c.slidingWindowType;
            slidingWindowSize = c.slidingWindowSize;
            minimumNumberOfCalls = c.minimumNumberOfCalls;
            permittedNumberOfCallsInHalfOpenState = c.permittedNumberOfCallsInHalfOpenState;
            waitDurationInOpenState = c.waitDurationInOpenState;
            exponentialBackoffMultiplier = c.exponentialBackoffMultiplier;
            // A max copied without backoff would pin a later, longer wait-duration-in-open-state.
            exponentialMaxWaitDurationInOpenState = c.exponentialBackoffMultiplier > 1.0
                    ? c.exponentialMaxWaitDurationInOpenState : null;
            automaticTransitionFromOpenToHalfOpenEnabled = c.automaticTransitionFromOpenToHalfOpenEnabled;
            maxWaitDurationInHalfOpenState = c.maxWaitDurationInHalfOpenState;
            recordExceptions = c.recordExceptions;
            ignoreExceptions = c.ignoreExceptions;
            recordExceptionPredicate = c.recordExceptionPredicate;
            ignoreExceptionPredicate = c.ignoreExceptionPredicate;
            recordResultPredicate = c.recordResultPredicate;
            initialState = c.initialState;
            transitionToStateAfterWaitDuration = c.transitionToStateAfterWaitDuration;
            randomizedWaitFactor = c.randomizedWaitFactor;
            waitIntervalFunctionInOpenState = c.waitIntervalFunctionInOpenState;
            transitionOnResult = c.transitionOnResult;
            timeout = c.timeout;
            writableStackTraceEnabled = c.writableStackTraceEnabled;
            ignoreExceptionsPrecedenceEnabled = c.ignoreExceptionsPrecedenceEnabled;
            currentTimestampFunction = c.currentTimestampFunction;
            timestampUnit = c.timestampUnit;
        }

        public Builder failureRateThreshold(float percent) { this.failureRateThreshold = percent; return this; }

        public Builder slowCallRateThreshold(float percent) { this.slowCallRateThreshold = percent; return this; }

        public Builder slowCallDurationThreshold(Duration d) { this.slowCallDurationThreshold = d; return this; }

        public Builder slidingWindowType(SlidingWindowType t) { this.slidingWindowType = t; return this; }

        public Builder slidingWindowSize(int size) { this.slidingWindowSize = size; return this; }

        /**
         * The window in one step, as Resilience4j's {@code slidingWindow(size, minimumCalls, type)}: a COUNT_BASED
         * window's minimum is capped at its size.
         *
         * @throws IllegalArgumentException when {@code size} or {@code minimumNumberOfCalls} is below 1, or
         *                                  {@code type} is null
         */
        public Builder slidingWindow(int size, int minimumNumberOfCalls, SlidingWindowType type) {
            requireAtLeastOne("sliding-window-size", size);
            requireAtLeastOne("minimum-number-of-calls", minimumNumberOfCalls);
            if (type == null) {
                throw new IllegalArgumentException("sliding-window-type must not be null");
            }
            this.slidingWindowSize = size;
            this.minimumNumberOfCalls = type == SlidingWindowType.COUNT_BASED
                    ? Math.min(minimumNumberOfCalls, size) : minimumNumberOfCalls;
            this.slidingWindowType = type;
            return this;
        }

        public Builder minimumNumberOfCalls(int n) { this.minimumNumberOfCalls = n; return this; }

        public Builder permittedNumberOfCallsInHalfOpenState(int n) {
            this.permittedNumberOfCallsInHalfOpenState = n;
            return this;
        }

        public Builder waitDurationInOpenState(Duration d) { this.waitDurationInOpenState = d; return this; }

        /** Enables exponential backoff of the OPEN wait: multiplier per consecutive opening, capped at max. */
        public Builder exponentialBackoff(double multiplier, Duration max) {
            this.exponentialBackoffMultiplier = multiplier;
            this.exponentialMaxWaitDurationInOpenState = max;
            return this;
        }

        public Builder automaticTransitionFromOpenToHalfOpenEnabled(boolean enabled) {
            this.automaticTransitionFromOpenToHalfOpenEnabled = enabled;
            return this;
        }

        public Builder maxWaitDurationInHalfOpenState(Duration d) { this.maxWaitDurationInHalfOpenState = d; return this; }

        public Builder recordExceptions(List<Class<? extends Throwable>> types) { this.recordExceptions = types; return this; }

        public Builder ignoreExceptions(List<Class<? extends Throwable>> types) { this.ignoreExceptions = types; return this; }

        public Builder recordException(Predicate<Throwable> p) { this.recordExceptionPredicate = p; return this; }

        public Builder ignoreException(Predicate<Throwable> p) { this.ignoreExceptionPredicate = p; return this; }

        public Builder recordResult(Predicate<Object> p) { this.recordResultPredicate = p; return this; }

        /** The state a new breaker starts in; CLOSED by default. */
        public Builder initialState(State state) { this.initialState = state; return this; }

        /**
         * Where HALF_OPEN goes after max-wait-duration-in-half-open-state: OPEN (default) or CLOSED; null throws
         * {@link IllegalArgumentException}, as in Resilience4j.
         */
        public Builder transitionToStateAfterWaitDuration(State state) {
            if (state == null) {
                throw new IllegalArgumentException("transition-to-state-after-wait-duration must not be null: "
                        + "use OPEN or CLOSED");
            }
            this.transitionToStateAfterWaitDuration = state;
            return this;
        }

        /** Spreads each OPEN wait over wait * [1 - factor, 1 + factor]; 0 turns it off. */
        public Builder randomizedWaitFactor(double factor) { this.randomizedWaitFactor = factor; return this; }

        /** The OPEN wait of the n-th consecutive opening (n from 1), replacing wait, backoff and randomization. */
        public Builder waitIntervalFunctionInOpenState(IntFunction<Duration> function) {
            this.waitIntervalFunctionInOpenState = function;
            return this;
        }

        /** Asked after each recorded outcome in CLOSED and HALF_OPEN: may open the breaker at once. */
        public Builder transitionOnResult(BiFunction<Object, Throwable, TransitionCheck> check) {
            this.transitionOnResult = check;
            return this;
        }

        /** Completes asynchronous calls exceptionally after this long; zero (the default) = no timeout. */
        public Builder timeout(Duration timeout) { this.timeout = timeout; return this; }

        /** Whether refusals ({@link CallNotPermittedException}) carry a stack trace; false by default. */
        public Builder writableStackTraceEnabled(boolean enabled) {
            this.writableStackTraceEnabled = enabled;
            return this;
        }

        /**
         * Whether {@link CircuitBreakerConfig#effectiveRecordExceptionPredicate()} leaves out what the ignore rules
         * match; false by default. The breaker lets ignore win either way.
         */
        public Builder ignoreExceptionsPrecedenceEnabled(boolean enabled) {
            this.ignoreExceptionsPrecedenceEnabled = enabled;
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
            this.currentTimestampFunction = function;
            this.timestampUnit = unit;
            return this;
        }

        public CircuitBreakerConfig build() {
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
}
