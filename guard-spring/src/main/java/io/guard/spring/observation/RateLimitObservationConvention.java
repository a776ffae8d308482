package io.guard.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags {@code @RateLimit} decisions. Declare a bean of this type to replace
 * {@link DefaultRateLimitObservationConvention} (or extend that class to add a tag).
 */
public interface RateLimitObservationConvention extends ObservationConvention<RateLimitObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof RateLimitObservationContext;
    }
}
