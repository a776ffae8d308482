package io.guard.spring.gateway;

import io.guard.spring.autoconfigure.report.GuardPropertiesException;
import io.guard.spring.method.GuardAnnotationException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.filter.factory.RequestRateLimiterGatewayFilterFactory;
import org.springframework.cloud.gateway.route.CachingRouteLocator;
import org.springframework.cloud.gateway.route.CompositeRouteLocator;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteDefinitionRouteLocator;
import org.springframework.cloud.gateway.route.RouteLocator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Runs {@link GatewayRouteCheck} once every bean exists (the gateway's filter factory included, which tells whether
 * Guard's limiter is the default one), and stops the start-up with one report of every mistake.
 *
 * <p>Routes built in Java ({@code RouteLocatorBuilder}) hide which rate limiter their filter uses. Each one with a
 * {@code guard.rate-limit.instances.<route id>} has its limit checked and registered now as well, as it would be at
 * its first request: the {@code guard} endpoint lists it from start-up and the unused-instance warning stays quiet.
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
    private final Predicate<String> configured;

    /**
     * @param beanName   the name of {@code limiter}'s bean, as routes name it: {@code #{@guardGatewayRateLimiter}}
     * @param configured whether {@code guard.rate-limit.instances.<name>} is configured
     */
    public GatewayRoutesCheckedAtStartup(GatewayLimits limits, GuardGatewayRateLimiter limiter, String beanName,
                                         ObjectProvider<GatewayProperties> gateway,
                                         ObjectProvider<RequestRateLimiterGatewayFilterFactory> filters,
                                         ObjectProvider<RouteLocator> locators, Predicate<String> configured) {
        this.limits = limits;
        this.limiter = limiter;
        this.beanName = beanName;
        this.gateway = gateway;
        this.filters = filters;
        this.locators = locators;
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
        for (String id : javaRouteIds()) {
            if (configured.test(id)) {
                try {
                    limits.spec(new GatewayLimits.Use(id, 1), "route '" + id + "' (RouteLocator)");
                } catch (GuardAnnotationException e) {
                    problems.add(new GuardAnnotationException(e.element(), "id", e.value(), e.problem(), e.action()));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw invalidRoutes(problems);
        }
    }

    /**
     * The ids of the routes the application's own {@code RouteLocator} beans build (the gateway's own locators, which
     * read the route definitions checked above, left out). Building them is what the gateway does at its first
     * refresh anyway; a locator that cannot answer now is skipped.
     */
    private Set<String> javaRouteIds() {
        Set<String> ids = new LinkedHashSet<>();
        locators.orderedStream()
                .filter(locator -> !(locator instanceof CachingRouteLocator || locator instanceof CompositeRouteLocator
                        || locator instanceof RouteDefinitionRouteLocator))
                .forEach(locator -> {
                    try {
                        List<Route> routes = locator.getRoutes().collectList().block(Duration.ofSeconds(5));
                        if (routes != null) {
                            routes.forEach(route -> ids.add(route.getId()));
                        }
                    } catch (RuntimeException e) {
                        // Not ours to fail: the gateway reports its own locators' errors.
                    }
                });
        return ids;
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
