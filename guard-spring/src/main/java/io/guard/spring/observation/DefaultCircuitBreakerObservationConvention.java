package io.guard.spring.observation;

import io.guard.spring.method.DurationFormat;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * {@code guard.circuitbreaker.call}, tagged with bounded values only: {@code guard.breaker}, {@code guard.state}
 * (the state that admitted or refused the call: {@code CLOSED}, {@code OPEN}, ...), {@code guard.outcome}
 * ({@code success}, {@code failure}, {@code ignored}, {@code timeout}, {@code not-permitted}, {@code bulkhead-full},
 * {@code released}), {@code guard.fallback} ({@code true} when the fallback answered) and {@code guard.method}.
 * The time left in OPEN for a refused call, {@code guard.retry-after}, goes to spans only.
 */
public class DefaultCircuitBreakerObservationConvention implements CircuitBreakerObservationConvention {

    /** The observation's name, which is the timer's and the span's. */
    public static final String NAME = "guard.circuitbreaker.call";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(CircuitBreakerObservationContext context) {
        return "circuitbreaker " + context.getBreaker();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(CircuitBreakerObservationContext context) {
        CircuitBreakerObservationContext.Outcome outcome = context.getOutcome();
        return KeyValues.of(
                KeyValue.of("guard.breaker", context.getBreaker()),
                KeyValue.of("guard.state", context.getState() == null ? "unknown" : context.getState().name()),
                KeyValue.of("guard.outcome", outcome == null ? "unknown" : outcome.tag()),
                KeyValue.of("guard.fallback", Boolean.toString(context.isFallback())),
                KeyValue.of("guard.method", context.getMethodName()));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(CircuitBreakerObservationContext context) {
        return context.getRetryAfter() == null ? KeyValues.empty()
                : KeyValues.of("guard.retry-after", DurationFormat.compact(context.getRetryAfter()));
    }
}
