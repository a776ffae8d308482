package io.guard.ratelimit;

/** What a limit does when its backend (Redis) fails or is too slow to answer. */
public enum BackendFailurePolicy {
    /** Allow the call and count the failure: availability over strictness. */
    FAIL_OPEN,
    /** Refuse the call (HTTP 503): strictness over availability. */
    FAIL_CLOSED,
    /** Decide in process with the same policy, per instance, until the backend is back. */
    LOCAL
}
