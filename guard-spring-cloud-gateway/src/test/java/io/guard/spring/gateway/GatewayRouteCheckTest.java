package io.guard.spring.gateway;

import io.guard.spring.autoconfigure.report.GuardPropertiesException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Start-up stops on routes Guard cannot limit, with one report naming each route, the filter's property and the
 * value (routes built in Java by their id); routes whose rate limiter is not Guard's are left alone. In-process backend: no Redis is needed to fail.
 */
class GatewayRouteCheckTest {

    @Test
    void badRoutesStopStartUpNamingRoutePropertyAndValue() {
        try (Backend backend = Backend.start()) {
            List<String> properties = new ArrayList<>(List.of("guard.rate-limit.backend=local",
                    "guard.rate-limit.instances.orders.rate=5", "guard.rate-limit.instances.orders.interval=60s"));
            properties.addAll(Gateway.route(0, "typo", "/a/**", backend, "guard.limit=ordrs"));
            properties.addAll(Gateway.route(1, "too-many", "/b/**", backend, "guard.limit=orders",
                    "guard.permits=6"));
            properties.addAll(Gateway.route(2, "old-style", "/c/**", backend, "redis-rate-limiter.replenishRate=10"));
            properties.addAll(Gateway.route(3, "unknown-arg", "/d/**", backend, "guard.limit=orders",
                    "guard.limt=orders"));
            properties.addAll(Gateway.route(4, "fine", "/e/**", backend, "guard.limit=orders"));
            properties.addAll(Gateway.route(5, "scg-own", "/f/**", backend, "rate-limiter=#{@redisRateLimiter}",
                    "redis-rate-limiter.replenishRate=10"));
            // No guard.limit: the limit named after the route, which has no rate.
            properties.addAll(Gateway.route(6, "catalog", "/catalog/**", backend));
            // A route built in Java whose limit is configured without a rate.
            properties.addAll(List.of("backend.uri=" + backend.uri(),
                    "guard.rate-limit.instances.java-orders.interval=60s"));

            Throwable failure = catchThrowable(() -> Gateway.start(new Class<?>[] {JavaRoutesTest.JavaRoutes.class},
                    properties.toArray(String[]::new)).close());

            GuardPropertiesException error = findCause(failure);
            String routes = Gateway.ROUTES;
            assertThat(error.getMessage()).contains("6 mistakes in the routes Guard limits")
                    .contains("route 'typo' (" + routes + "[0].filters[0]): args.guard.limit 'ordrs' has no rate")
                    .contains("route 'too-many' (" + routes + "[1].filters[0]): args.guard.permits '6' is outside")
                    .contains("route 'old-style' (" + routes + "[2].filters[0]): args 'redis-rate-limiter.replenishRate' configures "
                            + "Spring Cloud Gateway's RedisRateLimiter, but the route's rate limiter is Guard's")
                    .contains("route 'unknown-arg' (" + routes + "[3].filters[0]): args.guard.limt 'orders' is not "
                            + "an argument of Guard's rate limiter")
                    .contains("route 'catalog' (" + routes + "[6].filters[0]): id 'catalog' has no rate")
                    .contains("route 'java-orders' (RouteLocator): id 'java-orders' has no rate")
                    .doesNotContain("'fine'").doesNotContain("'scg-own'");
            assertThat(error.action()).contains("guard.rate-limit.instances.ordrs.rate")
                    .contains("rate-limiter: \"#{@redisRateLimiter}\"");
        }
    }

    /** What the migration table maps SCG's burstCapacity 0 onto: SCG refuses every request, Guard stops start-up. */
    @Test
    void aRoutesLimitWithAnExplicitBurstOfZeroStopsStartUp() {
        try (Backend backend = Backend.start()) {
            List<String> properties = new ArrayList<>(List.of("guard.rate-limit.backend=local",
                    "guard.rate-limit.instances.users.algorithm=TOKEN_BUCKET",
                    "guard.rate-limit.instances.users.rate=10", "guard.rate-limit.instances.users.interval=1s",
                    "guard.rate-limit.instances.users.burst=0"));
            properties.addAll(Gateway.route(0, "users", "/users/**", backend, "guard.limit=users"));

            Throwable failure = catchThrowable(() -> Gateway.start(properties.toArray(String[]::new)).close());

            assertThat(failure).isNotNull();
            assertThat(messages(failure)).contains("guard.rate-limit.instances.users.burst=0: burst must be at least 1 "
                    + "but was 0");
        }
    }

    private static String messages(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            all.append(cause.getMessage()).append('\n');
        }
        return all.toString();
    }

    static GuardPropertiesException findCause(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof GuardPropertiesException guard) {
                return guard;
            }
        }
        throw new AssertionError("start-up did not fail with GuardPropertiesException", failure);
    }
}
