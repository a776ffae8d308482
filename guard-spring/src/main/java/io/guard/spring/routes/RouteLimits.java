package io.guard.spring.routes;

import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.aop.Limiting;
import io.guard.spring.method.GuardAnnotationException;
import io.guard.spring.method.GuardExpressionParser;
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
public final class RouteLimits {

    private final List<Route> routes;
    private final Limiting limiting;
    private final BeanFactoryResolver beans;
    private final GuardExpressionParser parser;
    private final BeanFactory beanFactory;

    private RouteLimits(List<Route> routes, Limiting limiting, BeanFactory beanFactory, GuardExpressionParser parser) {
        this.routes = routes;
        this.limiting = limiting;
        this.beans = beanFactory == null ? null : new BeanFactoryResolver(beanFactory);
        this.parser = parser;
        this.beanFactory = beanFactory;
    }

    /**
     * Every route's limit resolved again over other settings (a configuration refresh), with the same layering as
     * at start-up; nothing changes. The paths and keys stay those of start-up.
     *
     * @throws GuardAnnotationException naming the route when the new settings make its limit invalid
     */
    public List<GuardedMethods.ResolvedLimit> resolveAgain(Function<String, LimitSettings> instances,
                                                           LimitSettings defaults) {
        var factory = new LimitSpecFactory(parser, instances, name -> LimitTiers.NONE, defaults,
                new KeyResolverBeans(beanFactory));
        List<GuardedMethods.ResolvedLimit> resolved = new ArrayList<>();
        for (Route route : routes) {
            LimitSpec old = route.spec();
            LimitSpec spec = factory.forConfiguration(old.name(), old.key(), old.permits(), old.site());
            resolved.add(new GuardedMethods.ResolvedLimit(spec.policy(), spec.shadow(), spec.site().describe()));
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
        var parser = new GuardExpressionParser(beanFactory == null ? null : beanFactory::containsBean);
        var factory = new RouteFactory(parser, new LimitSpecFactory(parser, instances, name -> LimitTiers.NONE, defaults,
                new KeyResolverBeans(beanFactory)));
        List<GuardAnnotationException> problems = new ArrayList<>();
        List<Route> routes = new ArrayList<>();
        for (int i = 0; i < definitions.size(); i++) {
            Route route = factory.create(i, definitions.get(i), problems);
            if (route != null) {
                routes.add(route);
            }
        }
        if (!problems.isEmpty()) {
            throw GuardAnnotationException.of(problems);
        }
        routes.forEach(route -> live.configure(route.spec().policy()));
        return new RouteLimits(List.copyOf(routes), new Limiting(registry, missingKey, live), beanFactory, parser);
    }

    /** Whether each route's limit was resolved to shadow mode at start-up, by policy name. */
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
     * @throws RateLimitExceededException when a route refuses (not in shadow mode)
     * @throws io.guard.spring.ratelimit.MissingRateLimitKeyException when a key expression yields nothing and the
     *         policy is to reject
     * @throws io.guard.ratelimit.RateLimiterBackendException when the backend failed and the limit fails closed
     */
    public void acquire(RouteRequest request, RateLimitDecisionSink sink) {
        List<LimitSpec> specs = matching(request);
        if (!specs.isEmpty()) {
            limiting.acquire(limiting.requests(specs, () -> context(request)), sink);
        }
    }

    /** {@link #acquire} without blocking: the stage fails with the refusal. */
    public CompletionStage<Void> acquireAsync(RouteRequest request, RateLimitDecisionSink sink) {
        List<LimitSpec> specs = matching(request);
        if (specs.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return limiting.acquireAsync(limiting.requests(specs, () -> context(request)), sink);
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
