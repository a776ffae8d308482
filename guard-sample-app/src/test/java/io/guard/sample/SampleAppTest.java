package io.guard.sample;

import org.springframework.boot.test.context.SpringBootTest;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The whole sample on a random port with an embedded Redis of its own (never a developer's Redis on 6379) and a
 * downstream without latency. Every test class with this annotation shares one application context. Metrics
 * export stays on (Spring Boot turns it off in tests by default) because the tour shows /actuator/prometheus.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"sample.redis.embedded=always", "sample.inventory.latency=0ms",
                // Metrics export on: the property of Boot 4's test support, then Boot 3.5's.
                "spring.test.metrics.export=true", "spring.test.observability.auto-configure=true"})
@interface SampleAppTest {
}
