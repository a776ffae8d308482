package io.guard.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rate-limit backend's health on real Redis: a server of this test's own, started by the harness, which the
 * test stops to see the backend reported DOWN with the error, while calls still go through (FAIL_OPEN).
 */
@SpringBootTest(classes = GuardActuatorTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                // Metrics export stays on in this test: the property of Boot 3.5's test support, then Boot 4's.
                "spring.test.observability.auto-configure=true", "spring.test.metrics.export=true",
                "management.endpoints.web.exposure.include=health,guard,metrics",
                "management.endpoint.health.show-details=always",
                "spring.data.redis.timeout=500ms",
                "spring.data.redis.connect-timeout=500ms",
        })
@DirtiesContext
class RedisBackendHealthIT {

    private static DedicatedRedis redis;

    @LocalServerPort
    int port;

    @Autowired
    LimitedService limited;

    Http http;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        redis = RedisServers.startDedicated();
        registry.add("spring.data.redis.url", redis::url);
        registry.add("guard.rate-limit.key-prefix", () -> "actuator-it:");
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @Test
    void theBackendIsUpWhileRedisAnswersAndDownWithTheErrorOnceItStops() {
        assertThat(LimitedService.rejections(() -> limited.redis("alice"), 4)).isEqualTo(1);

        JsonNode up = http.get("/actuator/health/guard/rateLimitBackend").json();
        assertThat(up.path("status").asText()).isEqualTo("UP");
        assertThat(up.path("details").path("backend").asText()).isEqualTo("redis");

        redis.stop();
        // FAIL_OPEN: the call is allowed although Redis cannot decide, and counted as an error. (Another user:
        // alice's refusal is remembered until its retry-after and would not reach Redis.)
        assertThat(LimitedService.rejections(() -> limited.redis("bob"), 1)).isZero();

        Http.Response down = http.get("/actuator/health/guard/rateLimitBackend");
        assertThat(down.status()).isEqualTo(503);
        assertThat(down.json().path("status").asText()).isEqualTo("DOWN");
        assertThat(down.json().path("details").path("backend").asText()).isEqualTo("redis");
        assertThat(down.json().path("details").path("lastError").asText()).isNotBlank();
        assertThat(down.json().path("details").path("lastErrorTime").asText()).endsWith("Z");

        JsonNode limiter = http.get("/actuator/guard/limit-redis").json().path("rateLimiter");
        assertThat(limiter.path("backend").path("status").asText()).isEqualTo("DOWN");
        assertThat(limiter.path("stats").path("permitted").asLong()).isEqualTo(3);
        assertThat(limiter.path("stats").path("rejected").asLong()).isEqualTo(1);
        assertThat(limiter.path("stats").path("errors").asLong()).isEqualTo(1);
    }
}
