package io.guard.breaker;

import java.time.Duration;
import java.time.Instant;

/**
 * The answer of a {@link CircuitBreakerConfig#transitionOnResult()} check: leave the breaker alone, or open it now,
 * for the usual wait or for a wait the outcome itself names (a downstream that answers "retry in 30 s").
 * The factory names are Resilience4j's, so a migrated check reads the same.
 *
 * @param open      whether to open the breaker
 * @param waitFor   how long to stay OPEN, or null for the configured wait
 * @param waitUntil until when to stay OPEN, or null; wins over {@code waitFor}
 */
public record TransitionCheck(boolean open, Duration waitFor, Instant waitUntil) {

    private static final TransitionCheck NONE = new TransitionCheck(false, null, null);
    private static final TransitionCheck OPEN = new TransitionCheck(true, null, null);

    public TransitionCheck {
        if (!open && (waitFor != null || waitUntil != null)) {
            throw new IllegalArgumentException("a wait only makes sense with open = true");
        }
        if (waitFor != null && (waitFor.isNegative() || waitFor.isZero())) {
            throw new IllegalArgumentException("waitFor must be positive but was " + waitFor);
        }
    }

    /** Leave the breaker as it is. */
    public static TransitionCheck noTransition() {
        return NONE;
    }

    /** Open for the configured wait-duration-in-open-state. */
    public static TransitionCheck transitionToOpen() {
        return OPEN;
    }

    /** Open and wait {@code wait} before the next trial. */
    public static TransitionCheck transitionToOpenAndWaitFor(Duration wait) {
        return new TransitionCheck(true, wait, null);
    }

    /** Open and wait until {@code until} before the next trial. */
    public static TransitionCheck transitionToOpenAndWaitUntil(Instant until) {
        return new TransitionCheck(true, null, until);
    }
}
