package io.guard.spring.routes;

import io.guard.spring.observation.DecisionObservation;
import io.guard.spring.observation.GuardObservations;
import io.micrometer.observation.Observation;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.ratelimit.CostCharges;
import io.guard.spring.ratelimit.LimitRequest;
import io.guard.spring.ratelimit.Limiting;
import io.guard.spring.method.GuardAnnotationException;
import io.guard.spring.method.GuardExpressionParser;
import io.guard.spring.method.ConfiguredLimits;
import io.guard.spring.method.CostSpec;
import io.guard.spring.method.GuardedMethods;
import io.guard.spring.method.KeyResolverBeans;
import io.guard.spring.method.LimitSpec;
import io.guard.spring.method.LimitSpecFactory;
import io.guard.spring.ratelimit.LimitSettings;
import io.guard.spring.ratelimit.LimitTiers;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.ratelimit.MissingKeyPolicy;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.request.RequestHeaders;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.spel.support.StandardEvaluationContext;

import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.Objects;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The limits configured by URL pattern ({@code guard.rate-limit.routes}), decided for a request the way
 * {@code @RateLimit} decides a call: every matching route in configuration order, the first refusal throwing
 * {@link RateLimitExceededException}, through the same registry (metrics, events, backend-failure policy), key
 * handling and shadow mode. The servlet filter and the WebFlux filter are its two callers.
 */
public final class RouteLimits implements ConfiguredLimits {

    private final List<Route> routes;
    private final Limiting limiting;
    private final CostCharges charges;
    private final BeanFactoryResolver beans;
    private final GuardExpressionParser parser;
    private final BeanFactory beanFactory;
    /** Answers null when decisions are not observed. */
    private final Supplier<GuardObservations> observations;

    private RouteLimits(List<Route> routes, Limiting limiting, CostCharges charges, BeanFactory beanFactory,
                        GuardExpressionParser parser, Supplier<GuardObservations> observations) {
        this.routes = routes;
        this.limiting = limiting;
        this.charges = charges;
        this.beans = beanFactory == null ? null : new BeanFactoryResolver(beanFactory);
        this.parser = parser;
        this.beanFactory = beanFactory;
        this.observations = observations;
    }

    /**
     * These routes, with each decision observed as {@code guard.ratelimit.decision} when {@code observations}
     * answers an instance (asked per request, so the registry may come from any configuration).
     */
    public RouteLimits observedBy(Supplier<GuardObservations> observations) {
        return new RouteLimits(routes, limiting, charges, beanFactory, parser, Objects.requireNonNull(observations));
    }

    /**
     * Every route's limit resolved again over other settings (a configuration refresh), with the same layering as
     * at start-up; nothing changes. The paths and keys stay those of start-up.
     *
     * @throws GuardAnnotationException naming the route when the new settings make its limit invalid
     */
    @Override
    public List<GuardedMethods.ResolvedLimit> resolveAgain(Function<String, LimitSettings> instances,
                                                           LimitSettings defaults) {
        var factory = new LimitSpecFactory(parser, instances, name -> LimitTiers.NONE, defaults,
                new KeyResolverBeans(beanFactory));
        List<GuardedMethods.ResolvedLimit> resolved = new ArrayList<>();
        for (Route route : routes) {
            LimitSpec old = route.spec();
            LimitSpec spec = factory.forConfiguration(old.name(), old.key(), old.permits(), old.site());
            if (old.cost() != null) { // the new settings must still carry a debt
                CostSpec.ofHeader(old.site(), "", old.cost().header(), old.cost().onFailure().name(), spec);
            }
            resolved.add(new GuardedMethods.ResolvedLimit(spec.policy(), spec.shadow(), spec.site().describe(),
                    spec.lease()));
        }
        return resolved;
    }

    /**
     * Checks every route and registers its limit with {@code live}.
     *
     * @param beanFactory resolves {@code @bean} references in key expressions (checked now); may be null
     * @param instances   {@code guard.rate-limit.instances.<name>} as settings ({@link LimitSettings#NONE} if absent)
     * @param defaults    {@code guard.rate-limit.defaults}
     * @param live        the configured policies with run-time overrides on top: routes are registered there, so an
     *                    override applies to them as to annotations
     * @throws GuardAnnotationException listing every mistake of every route, each naming
     *                                  {@code guard.rate-limit.routes[i]}, the field and the value
     */
    public static RouteLimits create(List<RouteDefinition> definitions, BeanFactory beanFactory,
                                     Function<String, LimitSettings> instances, LimitSettings defaults,
                                     MissingKeyPolicy missingKey, RateLimiterRegistry registry,
                                     LiveLimits live) {
        var parser = parser(beanFactory);
        List<GuardAnnotationException> problems = new ArrayList<>();
        List<Route> routes = build(definitions, parser, beanFactory, instances, defaults, problems);
        if (!problems.isEmpty()) {
            throw GuardAnnotationException.of(problems);
        }
        routes.forEach(route -> live.configure(route.spec().policy()));
        return new RouteLimits(List.copyOf(routes), new Limiting(registry, missingKey, live),
                new CostCharges(registry), beanFactory, parser, () -> null);
    }

    /**
     * What {@link #create} would refuse, without building anything or registering a limit: for the start-up check
     * that reports the routes' mistakes with every other property mistake.
     *
     * @param beanFactory where {@code @bean} references in key expressions must resolve (only asked whether it
     *                    contains the bean); may be null
     * @return every mistake of every route, each naming {@code guard.rate-limit.routes[i]}, the field and the value;
     *         empty when {@link #create} would succeed
     */
    public static List<GuardAnnotationException> problems(List<RouteDefinition> definitions, BeanFactory beanFactory,
                                                          Function<String, LimitSettings> instances,
                                                          LimitSettings defaults) {
        List<GuardAnnotationException> problems = new ArrayList<>();
        build(definitions, parser(beanFactory), beanFactory, instances, defaults, problems);
        return problems;
    }

    private static GuardExpressionParser parser(BeanFactory beanFactory) {
        return new GuardExpressionParser(beanFactory == null ? null : beanFactory::containsBean);
    }

    /** The routes that are right; what is wrong with the others goes to {@code problems}. */
    private static List<Route> build(List<RouteDefinition> definitions, GuardExpressionParser parser,
                                     BeanFactory beanFactory, Function<String, LimitSettings> instances,
                                     LimitSettings defaults, List<GuardAnnotationException> problems) {
        var factory = new RouteFactory(parser, new LimitSpecFactory(parser, instances, name -> LimitTiers.NONE, defaults,
                new KeyResolverBeans(beanFactory)));
        List<Route> routes = new ArrayList<>();
        for (int i = 0; i < definitions.size(); i++) {
            Route route = factory.create(i, definitions.get(i), problems);
            if (route != null) {
                routes.add(route);
            }
        }
        return routes;
    }

    /** Whether each route's limit was resolved to shadow mode at start-up, by policy name. */
    @Override
    public Map<String, Boolean> startupShadows() {
        Map<String, Boolean> shadows = new LinkedHashMap<>();
        routes.forEach(route -> shadows.putIfAbsent(route.spec().name(), route.spec().shadow()));
        return shadows;
    }

    /** Whether no route is configured: the filters then pass every request straight on. */
    public boolean isEmpty() {
        return routes.isEmpty();
    }

    /**
     * Decides every route that matches {@code request}, waiting for the backend (and up to a limit's timeout).
     *
     * @return what to charge once the request is answered ({@link RouteCosts#NONE} when no matching route has a cost)
     * @throws RateLimitExceededException when a route refuses (not in shadow mode)
     * @throws io.guard.spring.ratelimit.MissingRateLimitKeyException when a key expression yields nothing and the
     *         policy is to reject
     * @throws io.guard.ratelimit.RateLimiterBackendException when the backend failed and the limit fails closed
     */
    public RouteCosts acquire(RouteRequest request, RateLimitDecisionSink sink) {
        List<LimitSpec> specs = matching(request);
        if (specs.isEmpty()) {
            return RouteCosts.NONE;
        }
        DecisionObservation observed = observe(specs, null);
        if (observed == null) {
            List<LimitRequest> requests = limiting.requests(specs, () -> context(request));
            limiting.acquire(requests, sink);
            return RouteCosts.of(charges, requests);
        }
        List<LimitRequest> requests;
        try {
            requests = limiting.requests(specs, () -> context(request));
            limiting.acquire(requests, observed.sink(sink));
        } catch (RuntimeException failure) {
            observed.end(failure);
            throw failure;
        }
        observed.end(null);
        return RouteCosts.of(charges, requests);
    }

    /**
     * {@link #acquire} without blocking: the stage fails with the refusal, or answers what to charge after the
     * response.
     *
     * @param parent the observation the decision's is a child of (WebFlux: the one in the subscription's Reactor
     *               context), or null for this thread's current one
     */
    public CompletionStage<RouteCosts> acquireAsync(RouteRequest request, RateLimitDecisionSink sink, Object parent) {
        List<LimitSpec> specs = matching(request);
        if (specs.isEmpty()) {
            return CompletableFuture.completedFuture(RouteCosts.NONE);
        }
        DecisionObservation observed = observe(specs, parent instanceof Observation observation ? observation : null);
        if (observed == null) {
            List<LimitRequest> requests = limiting.requests(specs, () -> context(request));
            return limiting.acquireAsync(requests, sink).thenApply(ignored -> RouteCosts.of(charges, requests));
        }
        List<LimitRequest> requests;
        CompletionStage<Void> decided;
        try {
            requests = limiting.requests(specs, () -> context(request));
            decided = limiting.acquireAsync(requests, observed.sink(sink));
        } catch (RuntimeException failure) {
            observed.end(failure);
            throw failure;
        }
        return decided.whenComplete((ignored, failure) -> observed.end(failure instanceof CompletionException
                && failure.getCause() != null ? failure.getCause() : failure))
                .thenApply(ignored -> RouteCosts.of(charges, requests));
    }

    private DecisionObservation observe(List<LimitSpec> specs, Observation parent) {
        GuardObservations observing = observations.get();
        if (observing == null) {
            return null;
        }
        List<String> names = new ArrayList<>(specs.size());
        for (LimitSpec spec : specs) {
            names.add(spec.name());
        }
        return observing.configuredDecision(GuardObservations.ROUTES, names, parent);
    }

    private List<LimitSpec> matching(RouteRequest request) {
        List<LimitSpec> specs = new ArrayList<>(2);
        for (Route route : routes) {
            if (route.matches(request)) {
                specs.add(route.spec());
            }
        }
        return specs;
    }

    private EvaluationContext context(RouteRequest request) {
        var context = new StandardEvaluationContext(request);
        context.setVariable("request", request);
        context.setVariable("clientIp", request.getRemoteAddress());
        context.setVariable("headers", new RequestHeaders(request::header, request::firstHeaderValues));
        if (beans != null) {
            context.setBeanResolver(beans);
        }
        return context;
    }
}
