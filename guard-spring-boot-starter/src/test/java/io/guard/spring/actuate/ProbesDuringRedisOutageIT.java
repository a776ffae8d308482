package io.guard.spring.actuate;

import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe groups docs/actuator.md recommends answer at once while Redis is down: Guard's health reads what Guard
 * already knows and never waits on Redis, and Spring Boot's own {@code redis} indicator (here from
 * redisson-spring-boot-starter, which waits for its client's timeout and retries) is in neither group. A probe
 * that included it would wait as long as the client does: Lettuce's default command timeout is 60 s.
 */
@SpringBootTest(classes = GuardActuatorTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "management.endpoints.web.exposure.include=health",
                "management.endpoint.health.show-details=always",
                "management.endpoint.health.probes.enabled=true",
                "management.endpoint.health.group.liveness.include=livenessState",
                "management.endpoint.health.group.readiness.include=readinessState,guard",
        })
@DirtiesContext
class ProbesDuringRedisOutageIT {

    /** The bound a Kubernetes probe's default timeout (1 s) sets. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

    private static DedicatedRedis redis;

    @LocalServerPort
    int port;

    @Autowired
    LimitedService limited;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        redis = RedisServers.startDedicated();
        registry.add("spring.data.redis.url", redis::url);
        registry.add("guard.rate-limit.key-prefix", () -> "probes-it:");
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void livenessReadinessAndGuardAnswerWithinAProbesTimeoutWhileRedisIsDown() {
        Http http = new Http(port);
        assertThat(LimitedService.rejections(() -> limited.redis("alice"), 1)).isZero();
        for (String path : new String[] {"/actuator/health/liveness", "/actuator/health/readiness",
                "/actuator/health/guard"}) {
            assertThat(http.get(path).status()).as(path + " with Redis up").isEqualTo(200);
        }

        redis.stop();
        // The first decision after the outage finds it (FAIL_OPEN), so Guard's component now reports it.
        assertThat(LimitedService.rejections(() -> limited.redis("bob"), 1)).isZero();

        assertAnswersInTime(http, "/actuator/health/liveness", 200, "UP");
        // Only FAIL_OPEN limits here: serving by the failure policy keeps the instance ready.
        assertAnswersInTime(http, "/actuator/health/readiness", 200, "UP");
        Http.Response backend = assertAnswersInTime(http, "/actuator/health/guard/rateLimitBackend", 200,
                "FAILING_OVER");
        assertThat(backend.json().path("details").path("lastError").asText()).isNotBlank();
    }

    private static Http.Response assertAnswersInTime(Http http, String path, int status, String health) {
        long start = System.nanoTime();
        Http.Response response = http.get(path);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(response.status()).as(path + ": " + response.body()).isEqualTo(status);
        assertThat(response.json().path("status").asText()).as(path).isEqualTo(health);
        assertThat(took).as(path + " answered in " + took.toMillis() + " ms").isLessThan(PROBE_TIMEOUT);
        return response;
    }
}
