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
 * @param downSince     while not up: when the failures began (since then decisions follow the failure policies);
 *                      {@code null} while up
 * @param reason        the last failure's {@link BackendFailureReason#tag() reason} ({@code timeout},
 *                      {@code connection}, ...), or {@code null}
 */
public record BackendHealth(boolean up, String backend, String breakerState, String lastError, Instant lastErrorTime,
                            Instant downSince, String reason) {

    /** Without {@code downSince} and {@code reason}. */
    public BackendHealth(boolean up, String backend, String breakerState, String lastError, Instant lastErrorTime) {
        this(up, backend, breakerState, lastError, lastErrorTime, null, null);
    }

    /** A backend with nothing known against it. */
    public static BackendHealth up(String backend) {
        return new BackendHealth(true, backend, null, null, null);
    }

    /** This health after {@code failure} at {@code time}: down, since the first failure of the run. */
    BackendHealth failed(Throwable failure, Instant time) {
        return new BackendHealth(false, backend, null, Failures.describe(failure), time, up ? time : downSince,
                BackendFailureReason.of(failure).tag());
    }

    /** This health after a call the backend answered: up, keeping the last failure for the record. */
    BackendHealth recovered() {
        return new BackendHealth(true, backend, null, lastError, lastErrorTime, null, reason);
    }
}
