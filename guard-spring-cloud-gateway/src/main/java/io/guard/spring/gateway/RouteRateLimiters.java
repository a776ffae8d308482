package io.guard.spring.gateway;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.filter.factory.RequestRateLimiterGatewayFilterFactory;
import org.springframework.cloud.gateway.filter.ratelimit.RateLimiter;
import org.springframework.cloud.gateway.route.Route;

import java.lang.reflect.Field;
import java.util.Optional;

/**
 * Which {@code RateLimiter} a route built in Java asks. The {@code RequestRateLimiter} filter does not say: SCG builds
 * it as a lambda over the limiter it resolved (the route's own, else the factory's default, Guard's), so the limiter is
 * read from the lambda's captured value. Empty when the route has no such filter or a gateway version builds it
 * otherwise: the caller then falls back to what it can tell without it.
 */
final class RouteRateLimiters {

    private static final String FILTER_LAMBDA = RequestRateLimiterGatewayFilterFactory.class.getName() + "$$Lambda";

    private RouteRateLimiters() {
    }

    /** The rate limiter of {@code route}'s {@code RequestRateLimiter} filter, if it has one and it can be read. */
    static Optional<RateLimiter<?>> of(Route route) {
        for (GatewayFilter filter : route.getFilters()) {
            GatewayFilter inner = filter instanceof OrderedGatewayFilter ordered ? ordered.getDelegate() : filter;
            if (inner.getClass().getName().startsWith(FILTER_LAMBDA)) {
                return captured(inner);
            }
        }
        return Optional.empty();
    }

    private static Optional<RateLimiter<?>> captured(GatewayFilter filter) {
        for (Field field : filter.getClass().getDeclaredFields()) {
            if (RateLimiter.class.isAssignableFrom(field.getType())) {
                try {
                    field.setAccessible(true);
                    return Optional.ofNullable((RateLimiter<?>) field.get(filter));
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return Optional.empty(); // not readable on this JVM: the caller cannot tell, and says nothing
                }
            }
        }
        return Optional.empty();
    }
}
