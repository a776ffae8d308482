package io.guard.spring.gateway;

import io.guard.spring.autoconfigure.report.GuardPropertiesException;
import io.guard.spring.method.GuardAnnotationException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.filter.factory.RequestRateLimiterGatewayFilterFactory;
import org.springframework.cloud.gateway.filter.ratelimit.RateLimiter;
import org.springframework.cloud.gateway.route.CachingRouteLocator;
import org.springframework.cloud.gateway.route.CompositeRouteLocator;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteDefinitionRouteLocator;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.util.ClassUtils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Runs {@link GatewayRouteCheck} once every bean exists (the gateway's filter factory included, which tells whether
 * Guard's limiter is the default one), and stops the start-up with one report of every mistake.
 *
 * <p>Routes built in Java ({@code RouteLocatorBuilder}) are checked too, once built. One whose filter asks Guard's
 * limiter ({@link RouteRateLimiters}) has its limit checked and registered now, as it would be at its first request
 * (the {@code guard} endpoint lists it from start-up and the unused-instance warning stays quiet), unless another
 * rate limiter holds a configuration for it: {@code .rateLimiter(RedisRateLimiter.class, ...)} configures SCG's
 * limiter while the filter asks the default one, Guard's, which would answer every request with an error. When the
 * filter's limiter cannot be told, a route with a {@code guard.rate-limit.instances.<route id>} is checked.
 *
 * <p>Internal: public only for the auto-configuration.
 */
public final class GatewayRoutesCheckedAtStartup implements SmartInitializingSingleton {

    private final GatewayLimits limits;
    private final GuardGatewayRateLimiter limiter;
    private final String beanName;
    private final ObjectProvider<GatewayProperties> gateway;
    private final ObjectProvider<RequestRateLimiterGatewayFilterFactory> filters;
    private final ObjectProvider<RouteLocator> locators;
    private final ObjectProvider<RateLimiter<?>> rateLimiters;
    private final Predicate<String> configured;

    /**
     * @param beanName   the name of {@code limiter}'s bean, as routes name it: {@code #{@guardGatewayRateLimiter}}
     * @param rateLimiters every {@code RateLimiter} bean, Guard's among them
     * @param configured whether {@code guard.rate-limit.instances.<name>} is configured
     */
    public GatewayRoutesCheckedAtStartup(GatewayLimits limits, GuardGatewayRateLimiter limiter, String beanName,
                                         ObjectProvider<GatewayProperties> gateway,
                                         ObjectProvider<RequestRateLimiterGatewayFilterFactory> filters,
                                         ObjectProvider<RouteLocator> locators,
                                         ObjectProvider<RateLimiter<?>> rateLimiters, Predicate<String> configured) {
        this.limits = limits;
        this.limiter = limiter;
        this.beanName = beanName;
        this.gateway = gateway;
        this.filters = filters;
        this.locators = locators;
        this.rateLimiters = rateLimiters;
        this.configured = configured;
    }

    @Override
    public void afterSingletonsInstantiated() {
        GatewayProperties properties = gateway.getIfAvailable();
        if (properties == null) {
            return;
        }
        RequestRateLimiterGatewayFilterFactory factory = filters.getIfAvailable();
        boolean guardIsDefault = factory != null && factory.getDefaultRateLimiter() == limiter;
        List<GuardAnnotationException> problems =
                new ArrayList<>(new GatewayRouteCheck(limits, beanName, guardIsDefault).check(properties));
        for (Route route : javaRoutes()) {
            check(route, problems);
        }
        if (!problems.isEmpty()) {
            throw invalidRoutes(problems);
        }
    }

    private void check(Route route, List<GuardAnnotationException> problems) {
        String id = route.getId();
        String element = "route '" + id + "' (RouteLocator)";
        Optional<RateLimiter<?>> asked = RouteRateLimiters.of(route);
        if (asked.isPresent() && asked.get() != limiter) {
            return; // another limiter's route
        }
        if (asked.isEmpty() && !configured.test(id)) {
            return; // checked at its first request, if Guard's limiter is asked at all
        }
        List<String> others = otherLimitersConfiguring(id);
        if (asked.isPresent() && !others.isEmpty()) {
            problems.add(new GuardAnnotationException(element, "rateLimiter", String.join(", ", others),
                    "holds a configuration for the route, but the route's rate limiter is Guard's (the default)",
                    "Move the route to Guard: drop .rateLimiter(" + others.get(0) + ".class, ...) and configure "
                            + "guard.rate-limit.instances." + id + " (see docs/gateway.md); or keep SCG's limiter "
                            + "with .configure(c -> c.setRateLimiter(...)) naming it."));
            return;
        }
        GatewayLimits.Use use = limiter.use(id);
        try {
            limits.spec(use, element);
        } catch (GuardAnnotationException e) {
            String attribute = "permits".equals(e.attribute()) ? "Config.permits"
                    : e.attribute().equals(GatewayLimits.CONFIGURATION_PREFIX + "cost-header") ? "Config.costHeader"
                    : e.attribute().equals(GatewayLimits.CONFIGURATION_PREFIX + "cost-on-failure")
                    ? "Config.costOnFailure" : use.limit().equals(id) ? "id" : "Config.limit";
            problems.add(new GuardAnnotationException(e.element(), attribute, e.value(), e.problem(), e.action()));
        }
    }

    /** The class names of the rate limiters other than Guard's that hold a configuration for route {@code id}. */
    private List<String> otherLimitersConfiguring(String id) {
        return rateLimiters.orderedStream()
                .filter(other -> other != limiter && other.getConfig().containsKey(id))
                .map(other -> ClassUtils.getUserClass(other).getSimpleName()).distinct().toList();
    }

    /**
     * The routes the application's own {@code RouteLocator} beans build (the gateway's own locators, which read the
     * route definitions checked above, left out), one per id. Building them is what the gateway does at its first
     * refresh anyway; a locator that cannot answer now is skipped.
     */
    private Collection<Route> javaRoutes() {
        Map<String, Route> routesById = new LinkedHashMap<>();
        locators.orderedStream()
                .filter(locator -> !(locator instanceof CachingRouteLocator || locator instanceof CompositeRouteLocator
                        || locator instanceof RouteDefinitionRouteLocator))
                .forEach(locator -> {
                    try {
                        List<Route> routes = locator.getRoutes().collectList().block(Duration.ofSeconds(5));
                        if (routes != null) {
                            routes.forEach(route -> routesById.putIfAbsent(route.getId(), route));
                        }
                    } catch (RuntimeException e) {
                        // Not ours to fail: the gateway reports its own locators' errors.
                    }
                });
        return routesById.values();
    }

    /** Every mistake as {@code route 'id' (property): args.guard.limit 'value' problem}, in one exception. */
    static GuardPropertiesException invalidRoutes(List<GuardAnnotationException> problems) {
        String lines = problems.stream()
                .map(p -> "\n - " + p.element() + ": " + p.attribute() + " '" + p.value() + "' " + p.problem())
                .collect(Collectors.joining());
        String actions = problems.stream().map(p -> p.element() + ": " + p.action())
                .distinct().collect(Collectors.joining("\n"));
        return new GuardPropertiesException(GatewayProperties.PREFIX + ".routes", problems.size()
                + (problems.size() == 1 ? " mistake" : " mistakes") + " in the routes Guard limits:" + lines, actions);
    }
}
