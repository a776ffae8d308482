package io.guard.spring.gateway;

import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.cloud.gateway.filter.ratelimit.KeyResolver;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Routes built in Java name Guard's limiter themselves; their limit (named after the route) is checked and registered
 * at start-up when {@code guard.rate-limit.instances.<route id>} configures it, as for routes in properties (a bad one
 * stops start-up: {@link GatewayRouteCheckTest}).
 * In-process backend: no Redis needed.
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
}
