package io.guard.ratelimit;

/**
 * The backend decided, but fewer replicas than the limit's {@link ReplicaWait} asks for acknowledged the spend in
 * time: the admission is answered by the limit's {@link BackendFailurePolicy} like any backend failure, yet the
 * backend itself answered. So the backend breaker counts it as a success, not a failure: a primary without a
 * replica for a while (after a Sentinel failover, until the old primary is back as a replica) must not send every
 * other limit to its failure policy, nor hold back the first admission once a replica acknowledges again.
 */
public class ReplicaShortfallException extends RateLimiterBackendException {

    private static final long serialVersionUID = 1L;

    public ReplicaShortfallException(String message, Throwable cause) {
        super(message, cause);
    }
}
