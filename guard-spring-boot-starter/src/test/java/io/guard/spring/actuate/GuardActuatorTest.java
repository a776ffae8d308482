package io.guard.spring.actuate;

import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
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
@AutoConfigureObservability(tracing = false)
@SpringBootTest(classes = GuardActuatorTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
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
                // No Redis here: the local backend decides, and nothing may try localhost:6379.
                "spring.autoconfigure.exclude=org.redisson.spring.starter.RedissonAutoConfigurationV2,"
                        + "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration,"
                        + "org.springframework.boot.autoconfigure.data.redis.RedisReactiveAutoConfiguration,"
                        + "org.springframework.boot.autoconfigure.data.redis.RedisRepositoriesAutoConfiguration",
        })
@interface GuardActuatorTest {
}
