package io.guard.spring.actuate;

import org.springframework.boot.test.context.SpringBootTest;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The test application on a random port with Guard's endpoints exposed and the defaults a user gets: read-only
 * {@code guard}, breakers' health not failing when open. Test classes carrying it share one running server, so
 * each uses breaker names of its own.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
// Tests switch metric export off unless asked; the Prometheus scrape is part of what is proven here.
@SpringBootTest(classes = GuardActuatorTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                // Metrics export stays on in this test: the property of Boot 3.5's test support, then Boot 4's.
                "spring.test.observability.auto-configure=true", "spring.test.metrics.export=true",
                "management.endpoints.web.exposure.include=health,metrics,prometheus,guard,guardevents",
                "management.endpoint.health.show-details=always",
                "guard.rate-limit.backend=local",
                // Breakers open after 2 of 4 calls fail and stay OPEN for an hour, so tests see OPEN, never a
                // timed HALF_OPEN; IllegalArgumentException is ignored (neither success nor failure).
                "guard.circuit-breaker.defaults.sliding-window-size=4",
                "guard.circuit-breaker.defaults.minimum-number-of-calls=2",
                "guard.circuit-breaker.defaults.failure-rate-threshold=50",
                "guard.circuit-breaker.defaults.wait-duration-in-open-state=1h",
                "guard.circuit-breaker.defaults.ignore-exceptions=java.lang.IllegalArgumentException",
                // No Redis here: the local backend decides, and nothing may try localhost:6379. The names of both
                // Boot lines (Boot 3.5, then Boot 4); Boot ignores an excluded class that is not on the class path.
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
@interface GuardActuatorTest {
}
