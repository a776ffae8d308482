package io.guard.event;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Something that happened in a breaker or a limiter, kept in bounded buffers and published to listeners, the
 * actuator {@code guardevents} endpoint and its live stream.
 *
 * @param source   whether a breaker or a limiter produced it
 * @param name     the breaker's or limiter's name (never a resolved key such as a user id)
 * @param type     what happened
 * @param time     when it happened
 * @param duration the call's duration where there was a call, else {@link Duration#ZERO}
 * @param details  small facts for humans: {@code from}/{@code to} states, error class, retry-after
 */
public record GuardEvent(Source source, String name, Type type, Instant time, Duration duration,
                         Map<String, String> details) {

    public GuardEvent {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(time, "time");
        duration = duration == null ? Duration.ZERO : duration;
        details = details == null ? Map.of() : Map.copyOf(details);
    }

    /** Who produced the event; a bulkhead publishes NOT_PERMITTED when it is full. */
    public enum Source { CIRCUIT_BREAKER, RATE_LIMITER, BULKHEAD }

    /** Event types; breaker types first, then limiter types. */
    public enum Type {
        SUCCESS, ERROR, IGNORED_ERROR, NOT_PERMITTED, STATE_TRANSITION, RESET,
        FAILURE_RATE_EXCEEDED, SLOW_CALL_RATE_EXCEEDED,
        RATE_LIMITED, BACKEND_FAILURE
    }
}
