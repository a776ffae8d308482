package io.guard.spring.autoconfigure;

import io.guard.breaker.CircuitBreakerConfig;
import io.guard.spring.aop.ResultRecordedAsFailureException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns {@code guard.circuit-breaker.*} into core configurations: the defaults over Resilience4j's defaults, each
 * instance over the defaults. A value the core rejects stops start-up with the breaker's property prefix.
 */
final class CircuitBreakerConfigs {

    private static final String PREFIX = "guard.circuit-breaker.";

    private CircuitBreakerConfigs() {
    }

    static CircuitBreakerConfig defaults(CircuitBreakerProperties properties) {
        return apply(CircuitBreakerConfig.ofDefaults(), properties.getDefaults(), PREFIX + "defaults");
    }

    static Map<String, CircuitBreakerConfig> instances(CircuitBreakerProperties properties,
                                                       CircuitBreakerConfig defaults) {
        Map<String, CircuitBreakerConfig> configs = new LinkedHashMap<>();
        properties.getInstances().forEach((name, instance) ->
                configs.put(name, apply(defaults, instance, PREFIX + "instances." + name)));
        return configs;
    }

    private static CircuitBreakerConfig apply(CircuitBreakerConfig base, BreakerProperties p, String prefix) {
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
        if (p.getExponentialBackoffMultiplier() != null || p.getExponentialMaxWaitDurationInOpenState() != null) {
            double multiplier = p.getExponentialBackoffMultiplier() != null
                    ? p.getExponentialBackoffMultiplier() : base.exponentialBackoffMultiplier();
            b.exponentialBackoff(multiplier, p.getExponentialMaxWaitDurationInOpenState());
        }
        if (p.getRecordExceptions() != null) {
            b.recordExceptions(withResultFailures(p.getRecordExceptions()));
        }
        set(p.getIgnoreExceptions(), b::ignoreExceptions);
        try {
            return b.build();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new GuardPropertiesException(prefix, e.getMessage(),
                    "Fix the value under " + prefix + " (see the allowed range in the message).");
        }
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

    private static <T> void set(T value, Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }
}
