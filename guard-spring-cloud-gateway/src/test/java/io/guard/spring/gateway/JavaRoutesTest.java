package io.guard.spring.gateway;

import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.autoconfigure.report.GuardPropertiesException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.cloud.gateway.filter.ratelimit.KeyResolver;
import org.springframework.cloud.gateway.filter.ratelimit.RedisRateLimiter;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Routes built in Java: a route whose filter asks Guard's limiter has its limit checked and registered at start-up
 * (a bad one stops start-up: {@link GatewayRouteCheckTest}), and a route still configured for SCG's
 * {@code RedisRateLimiter} while its filter asks the default limiter, Guard's, stops start-up as its YAML equivalent
 * does; one that names SCG's limiter is left alone. In-process backend: no Redis needed.
 */
class JavaRoutesTest {

    @Configuration(proxyBeanMethods = false)
    static class JavaRoutes {

        @Bean
        RouteLocator javaRoutes(RouteLocatorBuilder builder, GuardGatewayRateLimiter guard, KeyResolver apiKeyResolver,
                                @Value("${backend.uri}") String backend) {
            return builder.routes()
                    .route("java-orders", r -> r.path("/java/**")
                            .filters(f -> f.requestRateLimiter(c -> c.setRateLimiter(guard)
                                    .setKeyResolver(apiKeyResolver)))
                            .uri(backend))
                    .build();
        }
    }

    /**
     * SCG's own way of configuring its limiter in Java: the filter asks the default limiter, now Guard's. (Setters
     * whose signature is the same in SCG 4.3 and 5.0, as this test runs on both.)
     */
    @Configuration(proxyBeanMethods = false)
    static class RedisRateLimiterRoutes {

        @Bean
        RouteLocator oldRoutes(RouteLocatorBuilder builder, KeyResolver apiKeyResolver,
                               @Value("${backend.uri}") String backend) {
            return builder.routes()
                    .route("limit_route", r -> r.path("/old/**")
                            .filters(f -> f.requestRateLimiter()
                                    .rateLimiter(RedisRateLimiter.class,
                                            c -> c.setReplenishRate(1).setRequestedTokens(1))
                                    .configure(c -> c.setKeyResolver(apiKeyResolver)))
                            .uri(backend))
                    .build();
        }
    }

    /** The same, but the filter names SCG's limiter: SCG's business, not Guard's. */
    @Configuration(proxyBeanMethods = false)
    static class KeptRedisRateLimiterRoutes {

        @Bean
        RouteLocator keptRoutes(RouteLocatorBuilder builder, RedisRateLimiter redisRateLimiter,
                                KeyResolver apiKeyResolver, @Value("${backend.uri}") String backend) {
            return builder.routes()
                    .route("kept_route", r -> r.path("/kept/**")
                            .filters(f -> f.requestRateLimiter()
                                    .rateLimiter(RedisRateLimiter.class,
                                            c -> c.setReplenishRate(1).setRequestedTokens(1))
                                    .configure(c -> c.setRateLimiter(redisRateLimiter).setKeyResolver(apiKeyResolver)))
                            .uri(backend))
                    .build();
        }
    }

    @Test
    void aJavaRoutesLimitIsRegisteredAtStartUpAndDecidesItsRequests() {
        try (Backend backend = Backend.start();
             Gateway gateway = Gateway.start(new Class<?>[] {JavaRoutes.class}, "backend.uri=" + backend.uri(),
                     "guard.rate-limit.backend=local", "guard.rate-limit.instances.java-orders.rate=2",
                     "guard.rate-limit.instances.java-orders.interval=60s")) {
            List<String> registered = gateway.context().getBean(RateLimiterRegistry.class).policies().stream()
                    .map(RateLimitPolicy::name).toList();
            assertThat(registered).contains("java-orders");

            assertThat(List.of(gateway.get("/java/1", "acme").statusCode(), gateway.get("/java/1", "acme").statusCode(),
                    gateway.get("/java/1", "acme").statusCode())).containsExactly(200, 200, 429);
        }
    }

    @Test
    void aJavaRouteStillConfiguredForRedisRateLimiterStopsStartUp() {
        try (Backend backend = Backend.start()) {
            Throwable failure = catchThrowable(() -> Gateway.start(new Class<?>[] {RedisRateLimiterRoutes.class},
                    "backend.uri=" + backend.uri(), "guard.rate-limit.backend=local").close());

            GuardPropertiesException error = GatewayRouteCheckTest.findCause(failure);
            assertThat(error.getMessage()).contains("route 'limit_route' (RouteLocator): rateLimiter "
                    + "'RedisRateLimiter' holds a configuration for the route, but the route's rate limiter is "
                    + "Guard's");
            assertThat(error.action()).contains(".rateLimiter(RedisRateLimiter.class, ...)")
                    .contains("guard.rate-limit.instances.limit_route");
        }
    }

    @Test
    void aJavaRouteThatNamesRedisRateLimiterIsLeftToIt() {
        try (Backend backend = Backend.start();
             Gateway gateway = Gateway.start(new Class<?>[] {KeptRedisRateLimiterRoutes.class},
                     "backend.uri=" + backend.uri(), "guard.rate-limit.backend=local")) {
            List<String> registered = gateway.context().getBean(RateLimiterRegistry.class).policies().stream()
                    .map(RateLimitPolicy::name).toList();
            assertThat(registered).doesNotContain("kept_route");
        }
    }
}
