package io.guard.ratelimit;

import io.guard.breaker.CallNotPermittedException;

import java.io.IOException;
import java.util.concurrent.TimeoutException;

/**
 * Why the backend could not decide, in a few words fit for a log line, a health detail and a meter tag
 * ({@code guard.ratelimit.backend.failures{reason}}): a handful of values, whatever the client's exception classes.
 */
public enum BackendFailureReason {
    /** Unanswered within the timeout while the backend was silent (hung, paused, overloaded). */
    TIMEOUT("timeout"),
    /** Could not reach the backend: connection refused, reset or closed. */
    CONNECTION("connection"),
    /** Not asked at all: the breaker guarding the backend is open after earlier failures. */
    BREAKER_OPEN("breaker-open"),
    /**
     * The backend decided, but too few replicas acknowledged the spend within {@code wait-for-replicas-timeout}
     * ({@link ReplicaShortfallException}); not a failure of the backend itself.
     */
    REPLICAS("replicas"),
    /** Anything else the backend or its client failed with (an error reply, a script error). */
    ERROR("error");

    private final String tag;

    BackendFailureReason(String tag) {
        this.tag = tag;
    }

    /** The lowercase name used in logs, health and meter tags, e.g. {@code breaker-open}. */
    public String tag() {
        return tag;
    }

    /** The reason behind {@code failure}, from the classes along its cause chain; called on failures only. */
    public static BackendFailureReason of(Throwable failure) {
        BackendFailureReason found = ERROR;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String name = t.getClass().getSimpleName();
            if (t instanceof ReplicaShortfallException) {
                return REPLICAS;
            }
            if (t instanceof CallNotPermittedException) {
                return BREAKER_OPEN;
            }
            if (t instanceof TimeoutException || name.contains("Timeout")) {
                return TIMEOUT;
            }
            if (found == ERROR && (t instanceof IOException || name.contains("Connection")
                    || name.contains("ClosedChannel"))) {
                found = CONNECTION;
            }
        }
        return found;
    }
}
