package io.guard.spring.actuate;

import io.guard.spring.ratelimit.RateLimitQuotas;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Quota operations on real Redis, with a second instance of the application on the same Redis: a reset on this
 * instance reaches the other's remembered refusals, and with Redis stopped both operations answer 503. Runs in one
 * method because the second part stops the server the first needs.
 */
@SpringBootTest(classes = GuardActuatorTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "management.endpoints.web.exposure.include=guard",
                "management.endpoint.guard.access=unrestricted",
                "spring.data.redis.timeout=500ms",
                "spring.data.redis.connect-timeout=500ms",
        })
@DirtiesContext
class GuardQuotaRedisIT {

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
        registry.add("guard.rate-limit.key-prefix", () -> "quota-it:");
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

    /** Another instance of the same application on the same Redis and key prefix, without a web server. */
    private static ConfigurableApplicationContext secondInstance() {
        return new SpringApplicationBuilder(GuardActuatorTestApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.data.redis.url=" + redis.url(), "guard.rate-limit.key-prefix=quota-it:",
                        "spring.data.redis.timeout=500ms", "spring.data.redis.connect-timeout=500ms")
                .run();
    }

    @Test
    void aResetReachesTheOtherInstanceAndRedisDownIs503() throws Exception {
        try (ConfigurableApplicationContext b = secondInstance()) {
            LimitedService other = b.getBean(LimitedService.class);
            assertThat(LimitedService.rejections(() -> other.quota("user-1"), 4)).as("b refuses and remembers")
                    .isEqualTo(1);
            assertThat(http.get("/actuator/guard/limit-quota/quota?key=user-1").json().path("remaining").asLong())
                    .as("a reads the quota b spent").isZero();

            Http.Response reset = http.delete("/actuator/guard/limit-quota/quota?key=user-1");
            assertThat(reset.status()).isEqualTo(200);
            assertThat(reset.json().path("remaining").asLong()).isEqualTo(3);

            // The reset message is delivered at once; b's remembered refusal lapses within 1 s even without it.
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).alias("b admits user-1 again")
                    .until(() -> LimitedService.rejections(() -> other.quota("user-1"), 1) == 0);
            assertThat(b.getBean(RateLimitQuotas.class).inspect("limit-quota", "user-1").remaining()).isEqualTo(2);
        }

        redis.stop();
        Http.Response read = http.get("/actuator/guard/limit-quota/quota?key=user-1");
        Http.Response resetDown = http.delete("/actuator/guard/limit-quota/quota?key=user-1");

        assertThat(read.status()).isEqualTo(503);
        assertThat(read.json().path("error").asText()).startsWith("rate limiter 'limit-quota': ")
                .doesNotContain("user-1");
        assertThat(resetDown.status()).isEqualTo(503);
        assertThat(resetDown.json().path("error").asText()).startsWith("rate limiter 'limit-quota': ")
                .doesNotContain("user-1");
    }
}
