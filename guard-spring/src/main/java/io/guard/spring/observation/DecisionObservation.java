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
import java.util.function.Supplier;

/**
 * One {@code guard.ratelimit.decision} observation: ended exactly once, by the call's outcome. A limit in shadow mode
 * reports its would-be refusal through the {@link #sink sink} it wraps.
 *
 * <p>A decision whose limits all lease may be <em>deferred</em> ({@code guard.observations.allowed-leased-decisions}
 * false, the default): nothing is started before it is asked, and an observation is made only when it ends with
 * something to tell (a refusal, a shadow refusal, a failure policy's answer, an error), started and stopped at once
 * with what was recorded. An allowed decision answered from a lease takes well under a microsecond, and observing it
 * would cost several times the decision (Micrometer's timer and long-task timer lookups, the key values, a span);
 * its count is in {@code guard.ratelimit.requests} either way.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 */
public final class DecisionObservation {

    private Observation observation;
    private RateLimitObservationContext context;
    /**
     * Makes and starts the observation of a deferred decision (null if the registry ignores it); null once asked, or
     * when the decision was never deferred.
     */
    private Supplier<Observation> deferred;
    private volatile String shadowLimit;
    private volatile Duration shadowWait;
    private volatile BackendFailurePolicy failurePolicy;
    private volatile BackendFailureReason backendFailure;
    private volatile boolean fallback;

    DecisionObservation(Observation observation) {
        this.observation = observation;
        this.context = (RateLimitObservationContext) observation.getContext();
    }

    /** A decision observed only if it ends with something to tell; {@code start} makes and starts its observation. */
    DecisionObservation(Supplier<Observation> start) {
        this.deferred = start;
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
                failurePolicy = policy.onBackendFailure();
                backendFailure = decision.backendFailure();
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
     * (a traced Redis command) is its child; closed as soon as the decision has been handed to the backend. Null for a
     * deferred decision, which has no observation yet (a lease's command is then the caller's observation's child).
     */
    public Observation.Scope openScope() {
        return observation == null ? null : observation.openScope();
    }

    /** The refusing limit's fallback method answers the call: said on the observation, which ends with the refusal. */
    public void fallback() {
        fallback = true;
    }

    /**
     * Ends the observation with the decision's outcome: {@code failure} null means allowed, a
     * {@link RateLimitExceededException} refused, anything else an error (a {@link RateLimiterBackendException} being
     * the answer of {@code FAIL_CLOSED} while the backend cannot decide).
     */
    public void end(Throwable failure) {
        if (deferred != null) {
            if (failure == null && shadowLimit == null && failurePolicy == null) {
                return;
            }
            observation = deferred.get();
            deferred = null;
            if (observation == null) {
                return;
            }
            context = (RateLimitObservationContext) observation.getContext();
        }
        if (fallback) {
            context.fallback();
        }
        if (failurePolicy != null) {
            context.failedOver(failurePolicy, backendFailure);
        }
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
        if (observation != null) {
            observation.stop();
        }
    }
}
