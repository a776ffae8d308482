package io.guard.spring.observation;

import io.guard.breaker.State;
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

    private final KeyValuesCache<Tags> lowCardinality = new KeyValuesCache<>();

    /**
     * What the low-cardinality key values are made of. Equality written out, names compared by identity first (they
     * are the same instances call after call): a record's generated one showed in profiles of the cache's lookup.
     */
    private record Tags(String breaker, State state, CircuitBreakerObservationContext.Outcome outcome,
                        boolean fallback, String method) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Tags that && state == that.state && outcome == that.outcome
                    && fallback == that.fallback && KeyValuesCache.same(breaker, that.breaker)
                    && KeyValuesCache.same(method, that.method);
        }

        @Override
        public int hashCode() {
            return KeyValuesCache.hash(KeyValuesCache.hash(KeyValuesCache.hash(KeyValuesCache.hash(
                    KeyValuesCache.hash(0, breaker), state), outcome), fallback), method);
        }
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(CircuitBreakerObservationContext context) {
        return lowCardinality.get(new Tags(context.getBreaker(), context.getState(), context.getOutcome(),
                context.isFallback(), context.getMethodName()), tags -> KeyValues.of(
                KeyValue.of("guard.breaker", tags.breaker()),
                KeyValue.of("guard.state", tags.state() == null ? "unknown" : tags.state().name()),
                KeyValue.of("guard.outcome", tags.outcome() == null ? "unknown" : tags.outcome().tag()),
                KeyValue.of("guard.fallback", Boolean.toString(tags.fallback())),
                KeyValue.of("guard.method", tags.method())));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(CircuitBreakerObservationContext context) {
        return context.getRetryAfter() == null ? KeyValues.empty()
                : KeyValues.of("guard.retry-after", DurationFormat.compact(context.getRetryAfter()));
    }
}
