package io.guard.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code guard} health contributor with the defaults: an open breaker does not fail the application. */
@GuardActuatorTest
class GuardHealthIT {

    @LocalServerPort
    int port;

    @Autowired
    CircuitBreakerRegistry breakers;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @Test
    void aClosedBreakerIsUpWithItsNumbers() {
        CircuitBreaker breaker = breakers.circuitBreaker("health-closed");
        Calls.succeed(breaker, 2);

        Http.Response response = http.get("/actuator/health/guard/circuitBreakers/health-closed");

        assertThat(response.status()).isEqualTo(200);
        JsonNode body = response.json();
        assertThat(body.path("status").asText()).isEqualTo("UP");
        assertThat(body.path("details").path("state").asText()).isEqualTo("CLOSED");
        assertThat(body.path("details").path("bufferedCalls").asInt()).isEqualTo(2);
        assertThat(body.path("details").path("failureRate").asDouble()).isEqualTo(0.0);
    }

    @Test
    void openAndHalfOpenHaveTheirOwnStatusesAndTheApplicationStaysUp() {
        CircuitBreaker open = breakers.circuitBreaker("health-open");
        Calls.fail(open, 2);
        breakers.circuitBreaker("health-half-open").transitionToHalfOpenState();

        Http.Response health = http.get("/actuator/health");

        assertThat(health.status()).isEqualTo(200);
        JsonNode root = health.json();
        assertThat(root.path("status").asText()).isEqualTo("UP");
        JsonNode guard = root.path("components").path("guard");
        JsonNode components = guard.path("components").path("circuitBreakers").path("components");
        assertThat(components.path("health-open").path("status").asText()).isEqualTo("CIRCUIT_OPEN");
        assertThat(components.path("health-open").path("details").path("remainingOpenTimeMs").asLong()).isPositive();
        assertThat(components.path("health-half-open").path("status").asText()).isEqualTo("CIRCUIT_HALF_OPEN");
        assertThat(http.get("/actuator/health/guard/circuitBreakers/health-open").status()).isEqualTo(200);
    }

    @Test
    void theLocalRateLimitBackendIsUp() {
        Http.Response response = http.get("/actuator/health/guard/rateLimitBackend");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().path("status").asText()).isEqualTo("UP");
        assertThat(response.json().path("details").path("backend").asText()).isEqualTo("local");
    }

    @Test
    void anUnknownBreakerHasNoHealthAndIsNotCreated() {
        assertThat(http.get("/actuator/health/guard/circuitBreakers/nobody").status()).isEqualTo(404);
        assertThat(breakers.find("nobody")).isEmpty();
    }
}
