package io.guard.spring.gateway;

import io.guard.spring.autoconfigure.report.GuardPropertiesException;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A route opts in to the {@code X-RateLimit-*} fields of SCG's {@code RedisRateLimiter} ({@code guard.scg-headers}),
 * for clients written against them; they come beside the IETF fields, and other routes do not get them.
 * In-process backend: no Redis needed.
 */
class ScgHeadersTest {

    @Test
    void aRouteThatAsksGetsScgsFieldsBesideTheIetfOnes() {
        try (Backend backend = Backend.start()) {
            List<String> properties = new ArrayList<>(List.of("guard.rate-limit.backend=local",
                    "guard.rate-limit.instances.users.algorithm=TOKEN_BUCKET",
                    "guard.rate-limit.instances.users.rate=2", "guard.rate-limit.instances.users.interval=1s",
                    "guard.rate-limit.instances.users.burst=3",
                    "guard.rate-limit.instances.plain.rate=5", "guard.rate-limit.instances.plain.interval=60s"));
            properties.addAll(Gateway.route(0, "users", "/users/**", backend, "guard.scg-headers=true"));
            properties.addAll(Gateway.route(1, "plain", "/plain/**", backend));
            try (Gateway gateway = Gateway.start(properties.toArray(String[]::new))) {
                HttpResponse<String> first = gateway.get("/users/1", "acme");
                assertThat(first.statusCode()).isEqualTo(200);
                assertThat(header(first, "X-RateLimit-Remaining")).isEqualTo("2");
                assertThat(header(first, "X-RateLimit-Replenish-Rate")).isEqualTo("2");
                assertThat(header(first, "X-RateLimit-Burst-Capacity")).isEqualTo("3");
                assertThat(header(first, "X-RateLimit-Requested-Tokens")).isEqualTo("1");
                assertThat(header(first, "RateLimit-Policy")).isEqualTo("\"users\";q=3;w=2");

                gateway.get("/users/1", "acme");
                gateway.get("/users/1", "acme");
                HttpResponse<String> refused = gateway.get("/users/1", "acme");
                assertThat(refused.statusCode()).isEqualTo(429);
                assertThat(header(refused, "X-RateLimit-Remaining")).isEqualTo("0");

                HttpResponse<String> plain = gateway.get("/plain/1", "acme");
                assertThat(header(plain, "RateLimit-Policy")).isEqualTo("\"plain\";q=5;w=60");
                assertThat(plain.headers().firstValue("X-RateLimit-Remaining")).isEmpty();
            }
        }
    }

    @Test
    void aValueThatIsNotABooleanStopsStartUp() {
        try (Backend backend = Backend.start()) {
            List<String> properties = new ArrayList<>(List.of("guard.rate-limit.backend=local",
                    "guard.rate-limit.instances.users.rate=2", "guard.rate-limit.instances.users.interval=1s"));
            properties.addAll(Gateway.route(0, "users", "/users/**", backend, "guard.scg-headers=yes please"));

            Throwable failure = catchThrowable(() -> Gateway.start(properties.toArray(String[]::new)).close());

            assertThat(GatewayRouteCheckTest.findCause(failure).getMessage()).contains("route 'users' ("
                    + Gateway.ROUTES + "[0].filters[0]): args.guard.scg-headers 'yes please' is neither true nor "
                    + "false");
        }
    }

    private static String header(HttpResponse<String> response, String name) {
        return response.headers().firstValue(name).orElse(null);
    }
}
