package io.guard.breaker;

import io.guard.refusal.Refusal;
import io.guard.refusal.RefusalKind;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Thrown when a circuit breaker refuses a call. It names the breaker and says how long until it may admit calls,
 * which the HTTP layer turns into {@code 503} with {@code Retry-After}.
 */
public class CallNotPermittedException extends RuntimeException implements Refusal {

    private static final long serialVersionUID = 1L;

    private final String breakerName;
    private final State state;
    private final Duration retryAfter;

    public CallNotPermittedException(String breakerName, State state, Duration retryAfter) {
        super(message(breakerName, state, retryAfter), null, false, false);
        this.breakerName = Objects.requireNonNull(breakerName, "breakerName");
        this.state = Objects.requireNonNull(state, "state");
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
    }

    private static String message(String name, State state, Duration retryAfter) {
        return switch (state) {
            case OPEN -> "Circuit breaker '" + name + "' is OPEN and admits no calls for another "
                    + retryAfter.toMillis() + " ms";
            case HALF_OPEN -> "Circuit breaker '" + name + "' is HALF_OPEN and all its trial calls are taken";
            default -> "Circuit breaker '" + name + "' is " + state + " and admits no calls";
        };
    }

    /** The breaker that refused the call. */
    public String breakerName() {
        return breakerName;
    }

    /** The state the breaker was in when it refused. */
    public State state() {
        return state;
    }

    /** The time until the breaker may admit a call; zero when unknown (FORCED_OPEN, a full HALF_OPEN). */
    public Duration retryAfter() {
        return retryAfter;
    }

    @Override
    public RefusalKind refusalKind() {
        return RefusalKind.CIRCUIT_OPEN;
    }

    /** {@link #retryAfter()}, except FORCED_OPEN: it has no known end, so no hint rather than a made-up one. */
    @Override
    public Optional<Duration> retryAfterHint() {
        return state == State.FORCED_OPEN ? Optional.empty() : Optional.of(retryAfter);
    }

    /** The {@link #breakerName()}. */
    @Override
    public String refusedBy() {
        return breakerName;
    }
}
