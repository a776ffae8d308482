package io.guard.spring.observation;

import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.BackendFailureReason;
import io.guard.spring.method.DurationFormat;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

import java.util.Locale;

/**
 * {@code guard.ratelimit.decision}, tagged with bounded values only: {@code guard.limit} (the answering limit),
 * {@code guard.outcome} ({@code allowed}, {@code refused}, {@code shadow-refused}, {@code error}),
 * {@code guard.method} ({@code OrderController.submit}), {@code guard.fallback} ({@code true} when the refusing limit's
 * fallback method answered), and, for a decision the backend could not make, the {@code on-backend-failure} policy
 * that answered instead and why: {@code guard.failure-policy} ({@code none}, {@code fail-open}, {@code local},
 * {@code fail-closed}) and {@code guard.backend.failure} ({@code none}, {@code timeout}, {@code connection},
 * {@code breaker-open}, {@code replicas}, {@code error}), so that a limit not enforced by its backend shows. The wait of a refusal, {@code guard.retry-after}
 * ({@code 1500ms}, {@code 42s}), is high-cardinality: it goes to spans, never to meters. The resolved key is never
 * a tag.
 */
public class DefaultRateLimitObservationConvention implements RateLimitObservationConvention {

    /** The observation's name, which is the timer's and the span's. */
    public static final String NAME = "guard.ratelimit.decision";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(RateLimitObservationContext context) {
        return "ratelimit " + context.getLimit();
    }

    private final KeyValuesCache<Tags> lowCardinality = new KeyValuesCache<>();

    /** What the low-cardinality key values are made of; equality written out, as the breaker's convention says why. */
    private record Tags(String limit, RateLimitObservationContext.Outcome outcome, String method, boolean fallback,
                        BackendFailurePolicy failurePolicy, BackendFailureReason backendFailure) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Tags that && outcome == that.outcome && fallback == that.fallback
                    && failurePolicy == that.failurePolicy && backendFailure == that.backendFailure
                    && KeyValuesCache.same(limit, that.limit) && KeyValuesCache.same(method, that.method);
        }

        @Override
        public int hashCode() {
            return KeyValuesCache.hash(KeyValuesCache.hash(KeyValuesCache.hash(KeyValuesCache.hash(KeyValuesCache.hash(
                    KeyValuesCache.hash(0, limit), outcome), method), fallback), failurePolicy), backendFailure);
        }
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(RateLimitObservationContext context) {
        return lowCardinality.get(new Tags(context.getLimit(), context.getOutcome(), context.getMethodName(),
                context.isFallback(), context.getFailurePolicy(), context.getBackendFailure()), tags -> KeyValues.of(
                KeyValue.of("guard.limit", tags.limit()),
                KeyValue.of("guard.outcome", tags.outcome() == null ? "unknown" : tags.outcome().tag()),
                KeyValue.of("guard.method", tags.method()),
                KeyValue.of("guard.fallback", Boolean.toString(tags.fallback())),
                KeyValue.of("guard.failure-policy", tags.failurePolicy() == null ? "none"
                        : tags.failurePolicy().name().toLowerCase(Locale.ROOT).replace('_', '-')),
                KeyValue.of("guard.backend.failure", tags.backendFailure() == null ? "none"
                        : tags.backendFailure().tag())));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(RateLimitObservationContext context) {
        return context.getRetryAfter() == null ? KeyValues.empty()
                : KeyValues.of("guard.retry-after", DurationFormat.compact(context.getRetryAfter()));
    }
}
