package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreakerConfig;
import io.guard.breaker.CircuitBreakerRegistry;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The application the actuator tests start: Guard's auto-configuration plus actuator, with breakers whose
 * thresholds let a test open them in a few calls.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class GuardActuatorTestApplication {

    /** Opens after 2 of 4 calls fail; stays OPEN for an hour so tests see OPEN, not a timed HALF_OPEN. */
    static final CircuitBreakerConfig QUICK = CircuitBreakerConfig.builder()
            .slidingWindowSize(4).minimumNumberOfCalls(2).failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofHours(1))
            .ignoreExceptions(List.of(IllegalArgumentException.class))
            .build();

    @Bean
    CircuitBreakerRegistry circuitBreakerRegistry() {
        return CircuitBreakerRegistry.builder().defaults(QUICK).instances(Map.of()).build();
    }
}
