package io.guard.spring.actuate;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * The application the actuator tests start: nothing but auto-configuration, so the registries, endpoints, health
 * and meters are exactly what a user of the starter gets. Breakers are configured by {@link GuardActuatorTest}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class GuardActuatorTestApplication {
}
