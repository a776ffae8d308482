package io.guard.spring.observation;

import io.guard.spring.method.GuardedMethod;
import io.guard.spring.method.LimitSpec;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Starts the observations of Guard's aspects on one {@link ObservationRegistry}, under the user's conventions when
 * there are any. Nothing is built for a no-op registry: {@link #decision} and {@link #breakerCall} answer null, and
 * the aspects then take their unobserved path.
 *
 * <p>Internal: public only because Guard's {@code aop} package and auto-configuration use it; not an API.
 */
public final class GuardObservations {

    private static final DefaultRateLimitObservationConvention DEFAULT_RATE_LIMIT =
            new DefaultRateLimitObservationConvention();
    private static final DefaultCircuitBreakerObservationConvention DEFAULT_BREAKER =
            new DefaultCircuitBreakerObservationConvention();

    /** {@code guard.method} of a decision of URL-pattern limits, which no method declares. */
    public static final String ROUTES = "guard.rate-limit.routes";
    /** {@code guard.method} of a decision of Spring Cloud Gateway's {@code RequestRateLimiter} filter. */
    public static final String GATEWAY = "spring.cloud.gateway.routes";

    private final ObservationRegistry registry;
    private final RateLimitObservationConvention rateLimitConvention;
    private final CircuitBreakerObservationConvention breakerConvention;
    /** Per guarded method, what its observations name: built once, not per call. */
    private final Map<Method, Names> names = new ConcurrentHashMap<>();

    /** {@code OrderController.submit} and the names of its limits. */
    record Names(String method, List<String> limits) {
    }

    /**
     * @param registry            where observations go
     * @param rateLimitConvention the user's convention for decisions, or null for the default
     * @param breakerConvention   the user's convention for breaker calls, or null for the default
     */
    public GuardObservations(ObservationRegistry registry, RateLimitObservationConvention rateLimitConvention,
                             CircuitBreakerObservationConvention breakerConvention) {
        this.registry = registry;
        this.rateLimitConvention = rateLimitConvention;
        this.breakerConvention = breakerConvention;
    }

    /** Whether observations can be seen at all: false for a no-op registry. */
    public boolean active() {
        return !registry.isNoop();
    }

    /**
     * Starts observing the decision of {@code guarded}'s limits, as a child of {@code parent} (null: the current
     * observation of this thread); null when the registry ignores it.
     */
    public DecisionObservation decision(GuardedMethod guarded, Observation parent) {
        Observation observation = started(Observation.createNotStarted(rateLimitConvention, DEFAULT_RATE_LIMIT,
                () -> new RateLimitObservationContext(guarded.method(), names(guarded)), registry), parent);
        return observation == null ? null
                : new DecisionObservation(observation, (RateLimitObservationContext) observation.getContext());
    }

    /**
     * Starts observing the decision of limits that configuration, not a method, puts on a request (URL patterns,
     * gateway routes), as a child of {@code parent} (null: the current observation of this thread); null when the
     * registry ignores it. Its {@code guard.method} is {@code source}, e.g. {@value #ROUTES}: bounded, and it says
     * where the limits come from.
     */
    public DecisionObservation configuredDecision(String source, List<String> limits, Observation parent) {
        Observation observation = started(Observation.createNotStarted(rateLimitConvention, DEFAULT_RATE_LIMIT,
                () -> new RateLimitObservationContext(null, new Names(source, limits)), registry), parent);
        return observation == null ? null
                : new DecisionObservation(observation, (RateLimitObservationContext) observation.getContext());
    }

    /** Starts observing one call through {@code guarded}'s breaker; null when the registry ignores it. */
    public BreakerObservation breakerCall(GuardedMethod guarded, Observation parent) {
        Observation observation = started(Observation.createNotStarted(breakerConvention, DEFAULT_BREAKER,
                () -> new CircuitBreakerObservationContext(guarded.method(), names(guarded).method(),
                        guarded.breaker().breaker().name()), registry), parent);
        return observation == null ? null
                : new BreakerObservation(observation, (CircuitBreakerObservationContext) observation.getContext());
    }

    /** {@code observation} started under {@code parent} (null: this thread's current one); null if it is a no-op. */
    private static Observation started(Observation observation, Observation parent) {
        if (observation.isNoop()) {
            return null;
        }
        if (parent != null) {
            observation.parentObservation(parent);
        }
        return observation.start();
    }

    private Names names(GuardedMethod guarded) {
        Names known = names.get(guarded.method());
        if (known == null) {
            List<String> limits = new ArrayList<>(guarded.limits().size());
            for (LimitSpec spec : guarded.limits()) {
                limits.add(spec.name());
            }
            known = new Names(describe(guarded.method()), List.copyOf(limits));
            names.put(guarded.method(), known);
        }
        return known;
    }

    /** {@code OrderController.submit}: bounded (one per guarded method), and what a reader recognises. */
    static String describe(Method method) {
        return method == null ? "" : method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }
}
