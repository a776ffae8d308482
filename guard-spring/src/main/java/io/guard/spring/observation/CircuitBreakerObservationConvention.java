package io.guard.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags {@code @CircuitBreaker} calls. Declare a bean of this type to replace
 * {@link DefaultCircuitBreakerObservationConvention} (or extend that class to add a tag).
 */
public interface CircuitBreakerObservationConvention extends ObservationConvention<CircuitBreakerObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof CircuitBreakerObservationContext;
    }
}
