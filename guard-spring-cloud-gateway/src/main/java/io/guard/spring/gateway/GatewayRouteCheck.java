package io.guard.spring.gateway;

import io.guard.spring.method.GuardAnnotationException;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.filter.FilterDefinition;
import org.springframework.cloud.gateway.route.RouteDefinition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks, at start-up, every route configured in {@code application.yml} whose {@code RequestRateLimiter} filter Guard
 * decides: its {@code guard.*} arguments, and that its limit exists with a rate and can grant the permits. Each such
 * limit is registered on the way, so that the {@code guard} endpoint lists it before the first request. Routes built
 * in code (a {@code RouteLocator} bean) are checked at their first request instead.
 */
final class GatewayRouteCheck {

    /** The filter's name in route definitions ({@code RequestRateLimiterGatewayFilterFactory} minus the suffix). */
    static final String FILTER = "RequestRateLimiter";
    private static final String FACTORY = FILTER + "GatewayFilterFactory";
    private static final Set<String> ARGS = Set.of("limit", "permits", "scg-headers", "cost-header", "cost-on-failure",
            "strip-cost-header");
    private static final String REDIS_ARGS = "redis-rate-limiter.";

    private final GatewayLimits limits;
    private final String beanName;
    private final boolean guardIsDefault;

    /**
     * @param beanName       the name of Guard's {@code RateLimiter} bean, as a route's {@code rate-limiter} names it
     * @param guardIsDefault whether a filter without {@code rate-limiter} is Guard's (Guard's bean is the primary one)
     */
    GatewayRouteCheck(GatewayLimits limits, String beanName, boolean guardIsDefault) {
        this.limits = limits;
        this.beanName = beanName;
        this.guardIsDefault = guardIsDefault;
    }

    /** Every mistake, each naming the route, the filter's property and the value; empty when all is well. */
    List<GuardAnnotationException> check(GatewayProperties gateway) {
        List<GuardAnnotationException> problems = new ArrayList<>();
        List<RouteDefinition> routes = gateway.getRoutes();
        for (int r = 0; r < routes.size(); r++) {
            RouteDefinition route = routes.get(r);
            String prefix = GatewayProperties.PREFIX + ".routes[" + r + "]";
            List<FilterDefinition> filters = route.getFilters();
            for (int f = 0; f < filters.size(); f++) {
                check(route.getId(), prefix + ".filters[" + f + "]", filters.get(f), problems);
            }
            List<FilterDefinition> defaults = gateway.getDefaultFilters();
            for (int f = 0; f < defaults.size(); f++) {
                check(route.getId(), GatewayProperties.PREFIX + ".default-filters[" + f + "]", defaults.get(f),
                        problems);
            }
        }
        return problems;
    }

    private void check(String routeId, String property, FilterDefinition filter,
                       List<GuardAnnotationException> problems) {
        if (!FILTER.equals(filter.getName()) && !FACTORY.equals(filter.getName())) {
            return;
        }
        Map<String, String> args = filter.getArgs();
        String limiter = arg(args, "rate-limiter", "rateLimiter");
        String element = "route '" + routeId + "' (" + property + ")";
        if (limiter == null ? !guardIsDefault : !limiter.contains("@" + beanName)) {
            return;
        }
        int before = problems.size();
        List<String> redisArgs = args.keySet().stream().filter(name -> name.startsWith(REDIS_ARGS)).sorted().toList();
        if (limiter == null && !redisArgs.isEmpty()) {
            problems.add(new GuardAnnotationException(element, "args", String.join(", ", redisArgs),
                    "configures Spring Cloud Gateway's RedisRateLimiter, but the route's rate limiter is Guard's",
                    "Move the route to Guard (guard.limit, see docs/gateway.md), or keep SCG's limiter with "
                            + "rate-limiter: \"#{@redisRateLimiter}\"."));
        }
        String limit = routeId;
        String limitSource = "id";
        long permits = 1;
        Map<String, String> costArgs = new HashMap<>(); // by the spelling of GatewayLimits' errors: the user's key
        String costHeader = null;
        String costOnFailure = null;
        boolean strip = false;
        for (Map.Entry<String, String> arg : args.entrySet()) {
            String name = arg.getKey();
            if (!name.startsWith(GuardGatewayRateLimiter.CONFIGURATION_PROPERTY_NAME + ".")) {
                continue;
            }
            String field = name.substring(GuardGatewayRateLimiter.CONFIGURATION_PROPERTY_NAME.length() + 1);
            String value = arg.getValue() == null ? "" : arg.getValue().trim();
            switch (field) {
                case "limit" -> {
                    if (value.isEmpty()) {
                        problems.add(new GuardAnnotationException(element, "args." + name, value, "is empty",
                                "Name a limit configured under guard.rate-limit.instances, or leave guard.limit out "
                                        + "to use the route id."));
                    } else {
                        limit = value;
                        limitSource = "args." + name;
                    }
                }
                case "permits" -> {
                    try {
                        permits = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        problems.add(new GuardAnnotationException(element, "args." + name, value,
                                "is not a whole number", "Give the permits each request takes, e.g. 1."));
                    }
                }
                case "scg-headers", "scgHeaders" -> {
                    if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                        problems.add(new GuardAnnotationException(element, "args." + name, value,
                                "is neither true nor false", "Write guard.scg-headers: true to send SCG's "
                                        + "X-RateLimit-* fields beside the IETF ones, or leave it out."));
                    }
                }
                case "cost-header", "costHeader" -> {
                    costHeader = value;
                    costArgs.put(GatewayLimits.CONFIGURATION_PREFIX + "cost-header", "args." + name);
                }
                case "cost-on-failure", "costOnFailure" -> {
                    costOnFailure = value;
                    costArgs.put(GatewayLimits.CONFIGURATION_PREFIX + "cost-on-failure", "args." + name);
                }
                case "strip-cost-header", "stripCostHeader" -> {
                    if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                        problems.add(new GuardAnnotationException(element, "args." + name, value,
                                "is neither true nor false", "Write guard.strip-cost-header: true to keep the "
                                        + "upstream's cost header from clients, or leave it out."));
                    } else if (value.equalsIgnoreCase("true")) {
                        strip = true;
                        costArgs.put("strip", "args." + name);
                    }
                }
                default -> problems.add(new GuardAnnotationException(element, "args." + name, value,
                        "is not an argument of Guard's rate limiter",
                        "Use " + ARGS.stream().sorted().map(a -> "guard." + a).toList() + "."));
            }
        }
        if (strip && (costHeader == null || costHeader.isEmpty())) {
            problems.add(new GuardAnnotationException(element, costArgs.get("strip"), "true",
                    "is set without a cost-header", "Set guard.cost-header (the response header holding what a "
                            + "request cost) or remove guard.strip-cost-header."));
        }
        if (problems.size() > before) {
            return;
        }
        try {
            limits.spec(new GatewayLimits.Use(limit, permits, costHeader, costOnFailure), element);
        } catch (GuardAnnotationException e) {
            // Named after the argument the user wrote (or the route id the limit is named after), not the spec's field
            String attribute = "permits".equals(e.attribute()) ? "args.guard.permits"
                    : costArgs.getOrDefault(e.attribute(), limitSource);
            problems.add(new GuardAnnotationException(element, attribute, e.value(), e.problem(), e.action()));
        }
    }

    /** A filter argument under either spelling (YAML keys keep the user's form), or null. */
    private static String arg(Map<String, String> args, String kebab, String camel) {
        String value = args.get(kebab);
        if (value == null) {
            value = args.get(camel);
        }
        return value == null || value.isBlank() ? null : value.trim();
    }
}
