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
import java.util.function.Predicate;

/**
 * Starts the observations of Guard's aspects on one {@link ObservationRegistry}, under the user's conventions when
 * there are any. Nothing is built for a no-op registry: {@link #decision} and {@link #breakerCall} answer null, and
 * the aspects then take their unobserved path. A decision whose limits all lease is deferred unless allowed leased
 * decisions are observed too (see {@link DecisionObservation}).
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
    /** Whether a limit leases now (a refresh may change it); null when every decision is observed from its start. */
    private final Predicate<String> leases;
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
        this(registry, rateLimitConvention, breakerConvention, null);
    }

    /**
     * @param leases whether a limit (by name) leases now, for deferring the observation of decisions whose limits
     *               all lease; null to observe every decision from its start
     *               ({@code guard.observations.allowed-leased-decisions=true})
     */
    public GuardObservations(ObservationRegistry registry, RateLimitObservationConvention rateLimitConvention,
                             CircuitBreakerObservationConvention breakerConvention, Predicate<String> leases) {
        this.registry = registry;
        this.rateLimitConvention = rateLimitConvention;
        this.breakerConvention = breakerConvention;
        this.leases = leases;
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
        return decision(guarded.method(), names(guarded), parent);
    }

    /**
     * Starts observing the decision of limits that configuration, not a method, puts on a request (URL patterns,
     * gateway routes), as a child of {@code parent} (null: the current observation of this thread); null when the
     * registry ignores it. Its {@code guard.method} is {@code source}, e.g. {@value #ROUTES}: bounded, and it says
     * where the limits come from.
     */
    public DecisionObservation configuredDecision(String source, List<String> limits, Observation parent) {
        return decision(null, new Names(source, limits), parent);
    }

    private DecisionObservation decision(Method method, Names names, Observation parent) {
        if (allLease(names.limits())) {
            if (registry.isNoop()) {
                return null;
            }
            // Started later, maybe on another thread: under the observation current here and now.
            Observation current = parent != null ? parent : registry.getCurrentObservation();
            return new DecisionObservation(() -> startDecision(method, names, current));
        }
        Observation observation = startDecision(method, names, parent);
        return observation == null ? null : new DecisionObservation(observation);
    }

    private Observation startDecision(Method method, Names names, Observation parent) {
        return started(Observation.createNotStarted(rateLimitConvention, DEFAULT_RATE_LIMIT,
                () -> new RateLimitObservationContext(method, names), registry), parent);
    }

    private boolean allLease(List<String> limits) {
        if (leases == null || limits.isEmpty()) {
            return false;
        }
        for (String limit : limits) {
            if (!leases.test(limit)) {
                return false;
            }
        }
        return true;
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
