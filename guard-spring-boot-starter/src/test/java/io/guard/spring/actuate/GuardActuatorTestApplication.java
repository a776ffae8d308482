package io.guard.spring.actuate;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The application the actuator tests start: auto-configuration and one rate-limited bean, so the registries,
 * endpoints, health and meters are exactly what a user of the starter gets. Breakers are configured by
 * {@link GuardActuatorTest}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class GuardActuatorTestApplication {

    @Bean
    LimitedService limitedService() {
        return new LimitedService();
    }
}
