package io.guard.ratelimit;

import java.time.Instant;

/**
 * Whether the rate-limit backend answers, for the actuator's health contributor. Error descriptions are exception
 * class names only: client messages quote the command's arguments, which contain users' keys.
 *
 * @param up            whether the last call reached the backend and its circuit breaker admits calls
 * @param backend       the backend's name ({@code redis}, {@code local})
 * @param breakerState  the state of the breaker guarding the backend, or {@code null} without one
 * @param lastError     the classes of the last backend failure (e.g. {@code RedisTimeoutException}), or {@code null}
 * @param lastErrorTime when it happened, or {@code null}
 */
public record BackendHealth(boolean up, String backend, String breakerState, String lastError, Instant lastErrorTime) {

    /** A backend with nothing known against it. */
    public static BackendHealth up(String backend) {
        return new BackendHealth(true, backend, null, null, null);
    }
}
