package io.guard.spring.autoconfigure;

import io.guard.spring.autoconfigure.report.PropertyMistakes;
import io.guard.breaker.CircuitBreakerConfig;
import io.guard.spring.breaker.ResultRecordedAsFailureException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns {@code guard.circuit-breaker.*} into core configurations: the defaults over Resilience4j's defaults, each
 * instance over the defaults. The values are checked before (see {@link PropertyMistakes}, which builds them the same
 * way), so every one that the core rejects stops start-up, all in one report, before these run.
 *
 * <p>Internal: public for the start-up report, which builds them the same way; not an API.
 */
public final class CircuitBreakerConfigs {

    private CircuitBreakerConfigs() {
    }

    static CircuitBreakerConfig defaults(CircuitBreakerProperties properties) {
        return build(CircuitBreakerConfig.ofDefaults(), properties.getDefaults(), new BreakerProperties());
    }

    static Map<String, CircuitBreakerConfig> instances(CircuitBreakerProperties properties,
                                                       CircuitBreakerConfig defaults) {
        Map<String, CircuitBreakerConfig> configs = new LinkedHashMap<>();
        properties.getInstances().forEach((name, instance) ->
                configs.put(name, build(defaults, instance, properties.getDefaults())));
        return configs;
    }

    /**
     * {@code p} over {@code base}; the core's exception, naming the setting and the value, when it cannot work.
     *
     * @param base      the configuration {@code p} refines (Resilience4j's defaults, or the built defaults)
     * @param inherited the properties {@code base} was built from, for settings that only make sense together
     */
    public static CircuitBreakerConfig build(CircuitBreakerConfig base, BreakerProperties p,
                                             BreakerProperties inherited) {
        CircuitBreakerConfig.Builder b = base.toBuilder();
        set(p.getFailureRateThreshold(), b::failureRateThreshold);
        set(p.getSlowCallRateThreshold(), b::slowCallRateThreshold);
        set(p.getSlowCallDurationThreshold(), b::slowCallDurationThreshold);
        set(p.getSlidingWindowType(), b::slidingWindowType);
        set(p.getSlidingWindowSize(), b::slidingWindowSize);
        set(p.getMinimumNumberOfCalls(), b::minimumNumberOfCalls);
        set(p.getPermittedNumberOfCallsInHalfOpenState(), b::permittedNumberOfCallsInHalfOpenState);
        set(p.getWaitDurationInOpenState(), b::waitDurationInOpenState);
        set(p.getAutomaticTransitionFromOpenToHalfOpenEnabled(), b::automaticTransitionFromOpenToHalfOpenEnabled);
        set(p.getMaxWaitDurationInHalfOpenState(), b::maxWaitDurationInHalfOpenState);
        // Each backoff property inherits on its own: the cap only from where the user wrote one (a cap the core
        // derived from the defaults' shorter wait would reject this instance's longer wait).
        Double multiplier = firstSet(p.getExponentialBackoffMultiplier(), inherited.getExponentialBackoffMultiplier());
        Duration max = firstSet(p.getExponentialMaxWaitDurationInOpenState(),
                inherited.getExponentialMaxWaitDurationInOpenState());
        if (multiplier != null || max != null) {
            b.exponentialBackoff(multiplier != null ? multiplier : base.exponentialBackoffMultiplier(), max);
        }
        if (p.getRecordExceptions() != null) {
            b.recordExceptions(withResultFailures(p.getRecordExceptions()));
        }
        if (p.getIgnoreExceptions() != null) {
            ignoring(p.getIgnoreExceptions(), b);
        }
        set(p.getInitialState(), b::initialState);
        set(p.getTransitionToStateAfterWaitDuration(), b::transitionToStateAfterWaitDuration);
        set(p.getRandomizedWaitFactor(), b::randomizedWaitFactor);
        set(p.getTimeout(), b::timeout);
        set(p.getWritableStackTraceEnabled(), b::writableStackTraceEnabled);
        return b.build();
    }

    /**
     * A restricted record-exceptions list would turn results flagged by {@code recordResult} into successes; they
     * are failures by the user's own expression, so they stay recorded.
     */
    private static List<Class<? extends Throwable>> withResultFailures(List<Class<? extends Throwable>> types) {
        if (types.isEmpty() || types.contains(ResultRecordedAsFailureException.class)) {
            return types;
        }
        List<Class<? extends Throwable>> extended = new ArrayList<>(types);
        extended.add(ResultRecordedAsFailureException.class);
        return extended;
    }

    /**
     * Results flagged by {@code recordResult} are failures by the user's own expression; an ignored supertype
     * ({@code RuntimeException}) must not turn them into nothing, so such a list becomes a predicate that spares them.
     */
    private static void ignoring(List<Class<? extends Throwable>> types, CircuitBreakerConfig.Builder b) {
        boolean coversResultFailures = types.stream()
                .anyMatch(type -> type.isAssignableFrom(ResultRecordedAsFailureException.class));
        if (!coversResultFailures) {
            b.ignoreExceptions(types);
            return;
        }
        List<Class<? extends Throwable>> listed = List.copyOf(types);
        b.ignoreExceptions(List.of()).ignoreException(error -> !(error instanceof ResultRecordedAsFailureException)
                && listed.stream().anyMatch(type -> type.isInstance(error)));
    }

    private static <T> T firstSet(T value, T fallback) {
        return value != null ? value : fallback;
    }

    private static <T> void set(T value, Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }
}
