package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code guard.circuit-breaker.instances.strict.health-fails-when-open=true}: an open breaker fails health. */
@GuardOperatorTest
class GuardHealthFailingIT {

    @LocalServerPort
    int port;

    @Autowired
    CircuitBreakerRegistry breakers;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @AfterEach
    void closeStrict() {
        // The server is shared with other operator tests, whose health checks must not see a failing breaker.
        breakers.circuitBreaker("strict").reset();
    }

    @Test
    void anOpenBreakerThatFailsHealthMakesTheApplicationDown() {
        CircuitBreaker strict = breakers.circuitBreaker("strict");
        Calls.fail(strict, 2);
        breakers.circuitBreaker("lenient").transitionToOpenState();

        Http.Response health = http.get("/actuator/health");

        assertThat(health.status()).isEqualTo(503);
        assertThat(health.json().path("status").asText()).isEqualTo("DOWN");
        var components = health.json().path("components").path("guard").path("components")
                .path("circuitBreakers").path("components");
        assertThat(components.path("strict").path("status").asText()).isEqualTo("DOWN");
        assertThat(components.path("strict").path("details").path("state").asText()).isEqualTo("OPEN");
        assertThat(components.path("lenient").path("status").asText()).isEqualTo("CIRCUIT_OPEN");
    }

    @Test
    void aForcedOpenBreakerThatFailsHealthIsOutOfService() {
        breakers.circuitBreaker("strict").transitionToForcedOpenState();

        Http.Response health = http.get("/actuator/health/guard/circuitBreakers/strict");

        assertThat(health.status()).isEqualTo(503);
        assertThat(health.json().path("status").asText()).isEqualTo("OUT_OF_SERVICE");
    }

    @Test
    void theSameBreakerClosedIsUp() {
        breakers.circuitBreaker("strict");

        assertThat(http.get("/actuator/health").status()).isEqualTo(200);
    }
}
