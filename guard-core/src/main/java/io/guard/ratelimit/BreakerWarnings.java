package io.guard.ratelimit;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.State;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Logs the backend breaker opening and closing at WARN: while it is open no decision asks the backend, and every
 * limit follows its on-backend-failure policy. It is told the state on the failure path and on recovery only (not
 * as a breaker listener, which would make the breaker build an event for every successful decision), and logs once
 * per change it sees. An outage that keeps failing the trial calls reopens the breaker every few seconds, so
 * openings are throttled (one line per 10 s, with the number held back); a closing is always logged.
 */
final class BreakerWarnings {

    private static final Logger log = LoggerFactory.getLogger(FailoverRateLimiter.class);

    private final CircuitBreaker breaker;
    private final String backend;
    private final Supplier<String> lastError;
    private final Clock clock;
    private final LogThrottle openings = new LogThrottle();
    private final AtomicReference<State> seen = new AtomicReference<>(State.CLOSED);

    BreakerWarnings(CircuitBreaker breaker, String backend, Supplier<String> lastError, Clock clock) {
        this.breaker = breaker;
        this.backend = backend;
        this.lastError = lastError;
        this.clock = clock;
    }

    /** Looks at the breaker's state now; logs if it opened or closed since last seen. */
    void look() {
        State now = breaker.state();
        State before = seen.get();
        if (now == before || !seen.compareAndSet(before, now)) {
            return;
        }
        boolean open = now == State.OPEN || now == State.FORCED_OPEN;
        boolean wasOpen = before == State.OPEN || before == State.FORCED_OPEN || before == State.HALF_OPEN;
        if (open && !wasOpen) {
            long heldBack = openings.pass(clock.millis());
            if (heldBack >= 0) {
                log.warn("Rate-limit backend {}: circuit breaker '{}' opened ({} -> {}) after {}; until it closes no "
                                + "decision asks {} and every limit follows its on-backend-failure policy{}", backend,
                        breaker.name(), before, now, lastError.get(), backend, LogThrottle.heldBack(heldBack));
            }
        } else if (now == State.CLOSED && wasOpen) {
            log.warn("Rate-limit backend {}: circuit breaker '{}' closed ({} -> {}); {} decides again", backend,
                    breaker.name(), before, now, backend);
        }
    }
}
