package io.guard.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The same endpoints and live stream on WebFlux (Reactor Netty) instead of Spring MVC. */
@GuardActuatorTest
@TestPropertySource(properties = "spring.main.web-application-type=reactive")
class ReactiveEventStreamIT {

    private static final Duration WAIT = Duration.ofSeconds(10);

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
    void aStateTransitionArrivesAsAServerSentEvent() throws Exception {
        try (SseClient sse = new SseClient(http, "/actuator/guardevents/stream?type=STATE_TRANSITION")) {
            assertThat(sse.status()).isEqualTo(200);
            assertThat(sse.contentType()).startsWith("text/event-stream");
            sse.nextLine(":connected", WAIT);

            CircuitBreaker breaker = breakers.circuitBreaker("reactive");
            Calls.fail(breaker, 2);

            JsonNode event = sse.nextEvent(WAIT);
            assertThat(event.path("name").asText()).isEqualTo("reactive");
            assertThat(event.path("type").asText()).isEqualTo("STATE_TRANSITION");
            assertThat(event.path("details").path("to").asText()).isEqualTo("OPEN");
        }
    }

    @Test
    void theEndpointsAnswerAsOnMvc() {
        breakers.circuitBreaker("reactive-listed").transitionToForcedOpenState();

        assertThat(http.get("/actuator/guard/reactive-listed").json().path("circuitBreaker").path("state").asText())
                .isEqualTo("FORCED_OPEN");
        assertThat(http.get("/actuator/guard/nobody").status()).isEqualTo(404);
        assertThat(http.post("/actuator/guard/reactive-listed", "{\"state\":\"CLOSED\"}").status()).isEqualTo(405);
        assertThat(http.get("/actuator/health/guard/circuitBreakers/reactive-listed").json().path("status").asText())
                .isEqualTo("CIRCUIT_FORCED_OPEN");
    }

    @Test
    void anUnknownTypeIs400() {
        assertThat(http.get("/actuator/guardevents/stream?type=BOOM").status()).isEqualTo(400);
    }
}
