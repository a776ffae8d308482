package io.guard.breaker;

import io.guard.refusal.Refusal;
import io.guard.refusal.RefusalKind;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Thrown when a circuit breaker refuses a call. It names the breaker and says how long until it may admit calls,
 * which the HTTP layer turns into {@code 503} with {@code Retry-After}.
 *
 * <p>Without a stack trace unless the breaker's {@link CircuitBreakerConfig#writableStackTraceEnabled()} asks for
 * one: while a breaker is open every call is refused, and the message already says which breaker and why, so
 * filling a trace per refusal would cost time and log lines for nothing.
 */
public class CallNotPermittedException extends RuntimeException implements Refusal {

    private static final long serialVersionUID = 1L;

    private final String breakerName;
    private final State state;
    private final Duration retryAfter;

    /** A refusal without a stack trace. */
    public CallNotPermittedException(String breakerName, State state, Duration retryAfter) {
        this(breakerName, state, retryAfter, false);
    }

    /** A refusal, with a stack trace when {@code writableStackTrace} is true. */
    public CallNotPermittedException(String breakerName, State state, Duration retryAfter, boolean writableStackTrace) {
        super(message(breakerName, state, retryAfter), null, false, writableStackTrace);
        this.breakerName = Objects.requireNonNull(breakerName, "breakerName");
        this.state = Objects.requireNonNull(state, "state");
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
    }

    /**
     * The refusal {@code breaker} would throw now: its name, state and time left in OPEN, with a stack trace if its
     * configuration enables writable stack traces. Resilience4j's factory of the same name.
     */
    public static CallNotPermittedException createCallNotPermittedException(CircuitBreaker breaker) {
        return new CallNotPermittedException(breaker.name(), breaker.state(), breaker.remainingOpenTime(),
                breaker.config().writableStackTraceEnabled());
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
