package io.guard.spring.gateway;

import io.guard.spring.observation.DecisionObservation;
import io.guard.spring.observation.GuardObservations;
import io.micrometer.observation.Observation;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.ratelimit.Limiting;
import io.guard.spring.method.AnnotationSite;
import io.guard.spring.method.ConfiguredLimits;
import io.guard.spring.method.GuardAnnotationException;
import io.guard.spring.method.CostSpec;
import io.guard.spring.method.GuardExpressionParser;
import io.guard.spring.method.GuardedMethods;
import io.guard.spring.method.KeyResolverBeans;
import io.guard.spring.method.LimitSpec;
import io.guard.spring.method.LimitSpecFactory;
import io.guard.spring.ratelimit.LimitRequest;
import io.guard.spring.ratelimit.LimitSettings;
import io.guard.spring.ratelimit.LimitTiers;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.ratelimit.MissingKeyPolicy;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.support.SimpleEvaluationContext;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The Guard limits that gateway routes use, decided through the same path as {@code @RateLimit} and
 * {@code guard.rate-limit.routes} ({@link Limiting}: the registry with its meters, events and backend-failure policy,
 * shadow mode and live overrides). A limit's settings come from {@code guard.rate-limit.instances.<name>} and the
 * defaults; the key is what the route's {@code KeyResolver} resolved.
 *
 * <p>Internal: public only for the auto-configuration.
 */
public final class GatewayLimits implements ConfiguredLimits {

    /**
     * What one route's filter asks for: a limit, the permits each request takes, and the response header holding
     * what a request cost (null when none) with what a failed request is charged ({@code estimate} or
     * {@code none}; null for the default).
     */
    record Use(String limit, long permits, String costHeader, String costOnFailure) {

        Use(String limit, long permits) {
            this(limit, permits, null, null);
        }
    }

    /** What the cost arguments' names start with in an error: {@code guard.cost-header}. */
    static final String CONFIGURATION_PREFIX = GuardGatewayRateLimiter.CONFIGURATION_PROPERTY_NAME + ".";

    private final GuardExpressionParser parser = new GuardExpressionParser(name -> false);
    private final LimitSpecFactory factory;
    private final Limiting limiting;
    private final LiveLimits live;
    private final Expression key;
    private final Map<Use, LimitSpec> specs = new ConcurrentHashMap<>();
    private final Supplier<GuardObservations> observations;

    /**
     * @param instances {@code guard.rate-limit.instances.<name>} as settings ({@link LimitSettings#NONE} if absent)
     * @param defaults  {@code guard.rate-limit.defaults}
     * @param live      the configured policies with run-time overrides on top; each limit is registered there
     * @param observations answers Guard's observations, or null when decisions are not observed
     */
    public GatewayLimits(Function<String, LimitSettings> instances, LimitSettings defaults,
                         RateLimiterRegistry registry, LiveLimits live, Supplier<GuardObservations> observations) {
        this.factory = factory(instances, defaults);
        // The key resolver's answer is the evaluation root; SCG itself refuses requests without a key.
        this.limiting = new Limiting(registry, MissingKeyPolicy.REJECT, live);
        this.live = live;
        this.observations = observations;
        this.key = parser.parse(AnnotationSite.property("RequestRateLimiter"), "key", "#root", Set.of());
    }

    /**
     * The checked limit of {@code use}, registered with the live limits (so that the {@code guard} endpoint lists it
     * and overrides apply) the first time it is asked for.
     *
     * @param property what to name in an error, e.g. {@code spring.cloud.gateway.server.webflux.routes[0]...}
     * @throws GuardAnnotationException naming {@code property} when the limit has no rate or cannot grant the permits,
     *                                  or cannot be charged the cost (attributes {@code guard.cost-header},
     *                                  {@code guard.cost-on-failure})
     */
    LimitSpec spec(Use use, String property) {
        LimitSpec spec = specs.get(use);
        if (spec != null) {
            return spec;
        }
        spec = withCost(factory.forConfiguration(use.limit(), key, use.permits(), AnnotationSite.property(property)),
                use.costHeader(), use.costOnFailure());
        LimitSpec raced = specs.putIfAbsent(use, spec);
        if (raced != null) {
            return raced;
        }
        live.configure(spec.policy());
        return spec;
    }

    /**
     * The limits routes have asked for so far, resolved again (a configuration refresh): each with its route's
     * permits, so that a refreshed rate that can no longer grant them is refused like at start-up.
     */
    @Override
    public List<GuardedMethods.ResolvedLimit> resolveAgain(Function<String, LimitSettings> instances,
                                                           LimitSettings defaults) {
        LimitSpecFactory fresh = factory(instances, defaults);
        List<GuardedMethods.ResolvedLimit> resolved = new ArrayList<>();
        specs.forEach((use, old) -> {
            LimitSpec spec = withCost(fresh.forConfiguration(use.limit(), key, use.permits(), old.site()),
                    use.costHeader(), use.costOnFailure());
            resolved.add(new GuardedMethods.ResolvedLimit(spec.policy(), spec.shadow(), spec.site().describe(),
                    spec.lease()));
        });
        return resolved;
    }

    @Override
    public Map<String, Boolean> startupShadows() {
        Map<String, Boolean> shadows = new LinkedHashMap<>();
        specs.values().forEach(spec -> shadows.putIfAbsent(spec.name(), spec.shadow()));
        return shadows;
    }

    /** {@code spec} charging the cost in the response header {@code header}, checked; {@code spec} without one. */
    private static LimitSpec withCost(LimitSpec spec, String header, String onFailure) {
        CostSpec cost = CostSpec.ofHeader(spec.site(), CONFIGURATION_PREFIX, header, onFailure, spec);
        return cost == null ? spec : spec.withCost(cost);
    }

    private LimitSpecFactory factory(Function<String, LimitSettings> instances, LimitSettings defaults) {
        return new LimitSpecFactory(parser, instances, name -> LimitTiers.NONE, defaults, new KeyResolverBeans(null));
    }

    /**
     * Decides one request of key {@code key} under {@code spec} without blocking; the stage answers the request as
     * decided (to charge its cost after the response), or fails with
     * {@link io.guard.spring.ratelimit.RateLimitExceededException} on a refusal (not in shadow mode), or with the
     * backend's error when the limit fails closed.
     */
    CompletionStage<List<LimitRequest>> acquire(LimitSpec spec, String key, RateLimitDecisionSink sink, Object parent) {
        GuardObservations observing = observations.get();
        DecisionObservation observed = observing == null ? null : observing.configuredDecision(
                GuardObservations.GATEWAY, List.of(spec.name()), parent instanceof Observation o ? o : null);
        if (observed == null) {
            return decide(spec, key, sink);
        }
        CompletionStage<List<LimitRequest>> decided;
        try {
            decided = decide(spec, key, observed.sink(sink));
        } catch (RuntimeException failure) {
            observed.end(failure);
            throw failure;
        }
        return decided.whenComplete((ignored, failure) -> observed.end(failure instanceof CompletionException
                && failure.getCause() != null ? failure.getCause() : failure));
    }

    private CompletionStage<List<LimitRequest>> decide(LimitSpec spec, String key, RateLimitDecisionSink sink) {
        List<LimitRequest> requests = limiting.requests(List.of(spec),
                () -> SimpleEvaluationContext.forReadOnlyDataBinding().withRootObject(key).build());
        return limiting.acquireAsync(requests, sink).thenApply(ignored -> requests);
    }
}
