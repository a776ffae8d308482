package io.guard.spring.observation;

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

    @Override
    public KeyValues getLowCardinalityKeyValues(RateLimitObservationContext context) {
        RateLimitObservationContext.Outcome outcome = context.getOutcome();
        return KeyValues.of(
                KeyValue.of("guard.limit", context.getLimit()),
                KeyValue.of("guard.outcome", outcome == null ? "unknown" : outcome.tag()),
                KeyValue.of("guard.method", context.getMethodName()),
                KeyValue.of("guard.fallback", Boolean.toString(context.isFallback())),
                KeyValue.of("guard.failure-policy", context.getFailurePolicy() == null ? "none"
                        : context.getFailurePolicy().name().toLowerCase(Locale.ROOT).replace('_', '-')),
                KeyValue.of("guard.backend.failure", context.getBackendFailure() == null ? "none"
                        : context.getBackendFailure().tag()));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(RateLimitObservationContext context) {
        return context.getRetryAfter() == null ? KeyValues.empty()
                : KeyValues.of("guard.retry-after", DurationFormat.compact(context.getRetryAfter()));
    }
}
