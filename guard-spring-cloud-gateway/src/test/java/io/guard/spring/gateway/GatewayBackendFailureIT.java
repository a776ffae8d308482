package io.guard.spring.gateway;

import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis stops under a running gateway: each route's limit answers by its own {@code on-backend-failure}, as
 * {@code @RateLimit} does: fail-open lets the request through to the backend, claiming no quota (nothing was
 * counted: no {@code RateLimit} field, and SCG's {@code X-RateLimit-Remaining} is -1 as SCG sends it then),
 * fail-closed answers 503.
 */
class GatewayBackendFailureIT {

    @Test
    void whenRedisIsDownEachRouteFollowsItsLimitsFailurePolicy() {
        try (DedicatedRedis redis = RedisServers.startDedicated(); Backend backend = Backend.start()) {
            List<String> properties = new ArrayList<>(List.of("spring.data.redis.url=" + redis.url(),
                    "guard.rate-limit.backend=redis", "guard.rate-limit.key-prefix=gateway-failure:",
                    "guard.rate-limit.instances.lenient.rate=100", "guard.rate-limit.instances.lenient.interval=60s",
                    "guard.rate-limit.instances.lenient.on-backend-failure=FAIL_OPEN",
                    "guard.rate-limit.instances.strict.rate=100", "guard.rate-limit.instances.strict.interval=60s",
                    "guard.rate-limit.instances.strict.on-backend-failure=FAIL_CLOSED"));
            properties.addAll(Gateway.route(0, "lenient", "/lenient/**", backend, "guard.scg-headers=true"));
            properties.addAll(Gateway.route(1, "strict", "/strict/**", backend));
            try (Gateway gateway = Gateway.start(properties.toArray(String[]::new))) {
                HttpResponse<String> counted = gateway.get("/lenient/a", "acme");
                assertThat(counted.statusCode()).isEqualTo(200);
                assertThat(counted.headers().firstValue("RateLimit")).hasValue("\"lenient\";r=99;t=60");
                assertThat(counted.headers().firstValue("X-RateLimit-Remaining")).hasValue("99");
                assertThat(gateway.get("/strict/a", "acme").statusCode()).isEqualTo(200);

                redis.stop();

                HttpResponse<String> lenient = gateway.get("/lenient/a", "acme");
                HttpResponse<String> strict = gateway.get("/strict/a", "acme");
                assertThat(lenient.statusCode()).isEqualTo(200);
                assertThat(lenient.body()).isEqualTo("backend /lenient/a");
                assertThat(lenient.headers().firstValue("RateLimit-Policy")).hasValue("\"lenient\";q=100;w=60");
                assertThat(lenient.headers().firstValue("RateLimit")).as("nothing was counted").isEmpty();
                assertThat(lenient.headers().firstValue("X-RateLimit-Remaining")).hasValue("-1");
                assertThat(strict.statusCode()).as(strict.body()).isEqualTo(503);
                assertThat(strict.body()).contains("urn:problem-type:guard:rate-limit-backend-unavailable");
            }
        }
    }
}
