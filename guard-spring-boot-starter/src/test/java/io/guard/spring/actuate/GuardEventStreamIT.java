package io.guard.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code /actuator/guardevents/stream} on Spring MVC: events arrive live as server-sent events. */
@GuardActuatorTest
class GuardEventStreamIT {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @LocalServerPort
    int port;

    @Autowired
    CircuitBreakerRegistry breakers;

    @Autowired
    LimitedService limited;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @Test
    void aStateTransitionArrivesAsAServerSentEvent() throws Exception {
        try (SseClient sse = new SseClient(http, "/actuator/guardevents/stream?name=streamed")) {
            assertThat(sse.status()).isEqualTo(200);
            assertThat(sse.contentType()).startsWith("text/event-stream");
            sse.nextLine(":connected", WAIT);

            CircuitBreaker breaker = breakers.circuitBreaker("streamed");
            breaker.transitionToForcedOpenState();

            JsonNode event = sse.nextEvent(WAIT);
            assertThat(event.path("source").asText()).isEqualTo("CIRCUIT_BREAKER");
            assertThat(event.path("name").asText()).isEqualTo("streamed");
            assertThat(event.path("type").asText()).isEqualTo("STATE_TRANSITION");
            assertThat(event.path("details").path("from").asText()).isEqualTo("CLOSED");
            assertThat(event.path("details").path("to").asText()).isEqualTo("FORCED_OPEN");
        }
    }

    @Test
    void onlyTheEventsAskedForAreSent() throws Exception {
        try (SseClient sse = new SseClient(http, "/actuator/guardevents/stream?name=stream-filtered&type=NOT_PERMITTED")) {
            sse.nextLine(":connected", WAIT);
            CircuitBreaker breaker = breakers.circuitBreaker("stream-filtered");
            breakers.circuitBreaker("stream-other").transitionToForcedOpenState();
            Calls.refused(breakers.circuitBreaker("stream-other"), 1);
            Calls.succeed(breaker, 1);
            breaker.transitionToForcedOpenState();
            Calls.refused(breaker, 1);

            JsonNode event = sse.nextEvent(WAIT);
            assertThat(event.path("name").asText()).isEqualTo("stream-filtered");
            assertThat(event.path("type").asText()).isEqualTo("NOT_PERMITTED");
            assertThat(event.path("details").path("state").asText()).isEqualTo("FORCED_OPEN");
        }
    }

    @Test
    void aRateLimitRejectionArrivesLive() throws Exception {
        try (SseClient sse = new SseClient(http, "/actuator/guardevents/stream?name=limit-streamed")) {
            sse.nextLine(":connected", WAIT);
            assertThat(LimitedService.rejections(limited::streamed, 4)).isEqualTo(1);

            JsonNode event = sse.nextEvent(WAIT);
            assertThat(event.path("source").asText()).isEqualTo("RATE_LIMITER");
            assertThat(event.path("type").asText()).isEqualTo("RATE_LIMITED");
            assertThat(event.path("name").asText()).isEqualTo("limit-streamed");
        }
    }

    @Test
    void anUnknownTypeIs400NamingIt() {
        Http.Response response = http.get("/actuator/guardevents/stream?type=BOOM");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().path("error").asText()).startsWith("Unknown event type 'BOOM'");
    }
}
