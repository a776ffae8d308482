package io.guard.spring.observation;

import io.guard.breaker.State;
import io.micrometer.observation.Observation;

import java.time.Duration;

/**
 * One running {@code guard.circuitbreaker.call} observation, told what the breaker decided and how the call ended;
 * stopped once, when the caller has its answer (the fallback's included).
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 */
public final class BreakerObservation {

    private final Observation observation;
    private final CircuitBreakerObservationContext context;

    BreakerObservation(Observation observation, CircuitBreakerObservationContext context) {
        this.observation = observation;
        this.context = context;
    }

    /** The observation itself, for a scope around the method or a Reactor context (parent of the method's). */
    public Observation observation() {
        return observation;
    }

    /** The breaker admitted the call in {@code state}. */
    public void admitted(State state) {
        context.state(state);
    }

    /** The breaker refused the call in {@code state}; {@code retryAfter} is the time left in OPEN. */
    public void notPermitted(State state, Duration retryAfter) {
        context.state(state);
        context.retryAfter(retryAfter);
        context.outcome(CircuitBreakerObservationContext.Outcome.NOT_PERMITTED);
    }

    /** How the call ended; the first outcome counts. */
    public void outcome(CircuitBreakerObservationContext.Outcome outcome) {
        context.outcome(outcome);
    }

    /** The fallback answered the call. */
    public void fallback() {
        context.fallback();
    }

    /** Stops the observation; {@code error} (null for none) is what the caller got, fallback or not. */
    public void stop(Throwable error) {
        if (error != null) {
            observation.error(error);
        }
        observation.stop();
    }
}
