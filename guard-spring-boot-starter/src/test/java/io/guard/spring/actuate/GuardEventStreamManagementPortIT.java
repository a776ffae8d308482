package io.guard.spring.actuate;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code management.server.port} set, the live event stream lives with the other actuator endpoints on the
 * management port (under the same security), not on the public application port.
 */
@SpringBootTest(classes = GuardActuatorTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "management.server.port=0",
                "management.endpoints.web.exposure.include=guard,guardevents",
                "guard.rate-limit.backend=local",
                "spring.autoconfigure.exclude=org.redisson.spring.starter.RedissonAutoConfigurationV2,"
                        + "org.redisson.spring.starter.RedissonAutoConfigurationV4,"
                        + "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration,"
                        + "org.springframework.boot.autoconfigure.data.redis.RedisReactiveAutoConfiguration,"
                        + "org.springframework.boot.autoconfigure.data.redis.RedisRepositoriesAutoConfiguration,"
                        + "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration,"
                        + "org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration,"
                        + "org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration,"
                        + "org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration,"
                        + "org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration",
        })
class GuardEventStreamManagementPortIT {

    @Value("${local.server.port}")
    int port;

    @Value("${local.management.port}")
    int managementPort;

    @Test
    void theStreamIsServedOnTheManagementPortOnly() throws Exception {
        assertThat(managementPort).isNotEqualTo(port);
        try (SseClient publicPort = new SseClient(new Http(port), "/actuator/guardevents/stream")) {
            assertThat(publicPort.status()).isEqualTo(404);
        }
        try (SseClient sse = new SseClient(new Http(managementPort), "/actuator/guardevents/stream")) {
            assertThat(sse.status()).isEqualTo(200);
            sse.nextLine(":connected", Duration.ofSeconds(10));
        }
    }
}
