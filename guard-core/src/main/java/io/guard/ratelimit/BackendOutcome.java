package io.guard.ratelimit;

/**
 * A decision and, when the backend failed and a failure policy answered instead, the failure: lets the registry
 * count a fail-open allow as an error rather than as a permit.
 *
 * @param decision     the answer to the request
 * @param backendError the failure the policy answered for, or {@code null} when the backend decided
 */
public record BackendOutcome(Decision decision, Throwable backendError) {

    /** A decision the backend took itself. */
    public static BackendOutcome decided(Decision decision) {
        return new BackendOutcome(decision, null);
    }
}
