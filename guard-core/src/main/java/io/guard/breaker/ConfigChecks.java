package io.guard.breaker;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The rules a {@link CircuitBreakerConfig}'s values must follow. Each throws {@link IllegalArgumentException} naming
 * the property (as spelled in {@code application.yml}) and the value, so a typo stops start-up with a message that
 * says what to fix.
 */
final class ConfigChecks {

    private ConfigChecks() {
    }

    /** A percentage in (0, 100]. */
    static void rate(String property, float value) {
        if (!(value > 0f && value <= 100f)) {
            throw new IllegalArgumentException(property + " must be in (0, 100] but was " + value);
        }
    }

    static void positive(String property, Duration value) {
        Objects.requireNonNull(value, property + " must not be null");
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(property + " must be positive but was " + value);
        }
    }

    static void notNegative(String property, Duration value) {
        Objects.requireNonNull(value, property + " must not be null");
        if (value.isNegative()) {
            throw new IllegalArgumentException(property + " must not be negative but was " + value);
        }
    }

    static void atLeastOne(String property, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(property + " must be at least 1 but was " + value);
        }
    }

    /** Positive and at least 1 ms: the OPEN wait is scheduled and reported in milliseconds. */
    static void waitInOpenState(Duration wait) {
        positive("wait-duration-in-open-state", wait);
        if (wait.toMillis() < 1) {
            throw new IllegalArgumentException("wait-duration-in-open-state must be at least 1ms but was " + wait);
        }
    }

    static void backoffMultiplier(double multiplier) {
        if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("exponential-backoff-multiplier must be a finite number >= 1 but was "
                    + multiplier);
        }
    }

    /** The cap on a backed-off OPEN wait: {@code wait} when unset, never below it. */
    static Duration maxWaitInOpenState(Duration max, Duration wait) {
        Duration cap = max == null ? wait : max;
        if (cap.compareTo(wait) < 0) {
            throw new IllegalArgumentException("exponential-max-wait-duration-in-open-state must not be shorter than "
                    + "wait-duration-in-open-state (" + wait + ") but was " + cap);
        }
        return cap;
    }

    /** Where HALF_OPEN goes when its maximum wait passes: OPEN when unset, else OPEN or CLOSED. */
    static State stateAfterWait(State state) {
        State after = state == null ? State.OPEN : state;
        if (after != State.OPEN && after != State.CLOSED) {
            throw new IllegalArgumentException("transition-to-state-after-wait-duration must be OPEN or CLOSED but was "
                    + after);
        }
        return after;
    }

    static void randomizedWaitFactor(double factor) {
        if (!(factor >= 0 && factor < 1)) {
            throw new IllegalArgumentException("randomized-wait-factor must be in [0, 1) but was " + factor);
        }
    }

    /** The unit of a timestamp function's readings: required with a function, nanoseconds without one. */
    static TimeUnit timestampUnit(Function<?, Long> function, TimeUnit unit) {
        if (function != null && unit == null) {
            throw new IllegalArgumentException("current-timestamp-function needs a time unit, but it was null");
        }
        return unit == null ? TimeUnit.NANOSECONDS : unit;
    }
}
