package io.guard.spring.observation;

import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.BackendFailureReason;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.micrometer.observation.Observation;

import java.time.Duration;

/**
 * One running {@code guard.ratelimit.decision} observation: ended exactly once, by the call's outcome. A limit in
 * shadow mode reports its would-be refusal through the {@link #sink sink} it wraps.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 */
public final class DecisionObservation {

    private final Observation observation;
    private final RateLimitObservationContext context;
    private volatile String shadowLimit;
    private volatile Duration shadowWait;

    DecisionObservation(Observation observation, RateLimitObservationContext context) {
        this.observation = observation;
        this.context = context;
    }

    /** {@code delegate}, also telling this observation about refusals of limits in shadow mode. */
    public RateLimitDecisionSink sink(RateLimitDecisionSink delegate) {
        return new RateLimitDecisionSink() {
            @Override
            public void record(RateLimitPolicy policy, Decision decision) {
                delegate.record(policy, decision);
            }

            @Override
            public void failedOver(RateLimitPolicy policy, Decision decision) {
                context.failedOver(policy.onBackendFailure(), decision.backendFailure());
                delegate.failedOver(policy, decision);
            }

            @Override
            public void shadowRefusal(RateLimitPolicy policy, Decision decision) {
                shadowWait = decision.retryAfter();
                shadowLimit = policy.name();
                delegate.shadowRefusal(policy, decision);
            }
        };
    }

    /**
     * Makes this observation the current one while the decision is asked, so that what the backend's client observes
     * (a traced Redis command) is its child; closed as soon as the decision has been handed to the backend.
     */
    public Observation.Scope openScope() {
        return observation.openScope();
    }

    /** The refusing limit's fallback method answers the call: said on the observation, which ends with the refusal. */
    public void fallback() {
        context.fallback();
    }

    /**
     * Ends the observation with the decision's outcome: {@code failure} null means allowed, a
     * {@link RateLimitExceededException} refused, anything else an error (a {@link RateLimiterBackendException} being
     * the answer of {@code FAIL_CLOSED} while the backend cannot decide).
     */
    public void end(Throwable failure) {
        if (failure == null) {
            String shadow = shadowLimit;
            if (shadow == null) {
                context.end(RateLimitObservationContext.Outcome.ALLOWED, null, null);
            } else {
                context.end(RateLimitObservationContext.Outcome.SHADOW_REFUSED, shadow, shadowWait);
            }
        } else if (failure instanceof RateLimitExceededException refusal) {
            // Not observation.error(): a refusal is the limit doing its job, not a failed operation.
            context.end(RateLimitObservationContext.Outcome.REFUSED, refusal.policyName(),
                    refusal.decision().retryAfter());
        } else {
            for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
                if (cause instanceof RateLimiterBackendException) {
                    context.failedOver(BackendFailurePolicy.FAIL_CLOSED, BackendFailureReason.of(cause));
                    break;
                }
            }
            context.end(RateLimitObservationContext.Outcome.ERROR, null, null);
            observation.error(failure);
        }
        observation.stop();
    }

    /** Ends the observation of a decision nobody waits for any more (the subscriber cancelled): no outcome. */
    public void cancelled() {
        observation.stop();
    }
}
