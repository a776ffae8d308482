package io.guard.ratelimit;

/**
 * A decision and, when the backend failed and a failure policy answered instead, the failure: lets the registry
 * count a fail-open allow as an error rather than as a permit.
 */
record BackendOutcome(Decision decision, Throwable backendError) {
}
