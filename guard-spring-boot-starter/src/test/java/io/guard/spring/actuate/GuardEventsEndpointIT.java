package io.guard.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code /actuator/guardevents}: recent events, newest first, filtered by name and type. */
@GuardActuatorTest
class GuardEventsEndpointIT {

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

    private static List<String> types(JsonNode events) {
        List<String> types = new ArrayList<>();
        events.forEach(e -> types.add(e.path("type").asText()));
        return types;
    }

    @Test
    void listsABreakersEventsNewestFirst() {
        CircuitBreaker breaker = breakers.circuitBreaker("events-newest");
        Calls.fail(breaker, 2);
        Calls.refused(breaker, 1);
        breaker.transitionToClosedState();

        JsonNode events = http.get("/actuator/guardevents?name=events-newest").json().path("events");

        // Newest first: the manual close, the refusal, the opening with its cause, the two failures.
        assertThat(types(events)).containsExactly("STATE_TRANSITION", "NOT_PERMITTED", "STATE_TRANSITION",
                "FAILURE_RATE_EXCEEDED", "ERROR", "ERROR");
        JsonNode closing = events.get(0);
        assertThat(closing.path("source").asText()).isEqualTo("CIRCUIT_BREAKER");
        assertThat(closing.path("name").asText()).isEqualTo("events-newest");
        assertThat(closing.path("details").path("from").asText()).isEqualTo("OPEN");
        assertThat(closing.path("details").path("to").asText()).isEqualTo("CLOSED");
        assertThat(closing.path("time").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat(events.get(5).path("details").path("error").asText()).isEqualTo("java.lang.IllegalStateException");
        assertThat(events.get(5).path("durationMs").isNumber()).isTrue();
    }

    @Test
    void filtersByTypeAcrossBreakersAndLimitsTheCount() {
        breakers.circuitBreaker("events-a").transitionToForcedOpenState();
        breakers.circuitBreaker("events-b").transitionToDisabledState();
        breakers.circuitBreaker("events-b").transitionToMetricsOnlyState();

        JsonNode events = http.get("/actuator/guardevents?type=STATE_TRANSITION,RESET").json().path("events");
        List<String> mine = new ArrayList<>();
        events.forEach(e -> {
            if (e.path("name").asText().startsWith("events-")) {
                mine.add(e.path("name").asText() + ":" + e.path("details").path("to").asText());
            }
        });
        assertThat(mine).startsWith("events-b:METRICS_ONLY", "events-b:DISABLED", "events-a:FORCED_OPEN");
        events.forEach(e -> assertThat(e.path("type").asText()).isIn("STATE_TRANSITION", "RESET"));

        JsonNode limited = http.get("/actuator/guardevents?name=events-b&limit=1").json().path("events");
        assertThat(limited).hasSize(1);
        assertThat(limited.get(0).path("details").path("to").asText()).isEqualTo("METRICS_ONLY");
    }

    @Test
    void listsLimiterRejectionsWithoutTheKey() {
        assertThat(LimitedService.rejections(limited::events, 5)).isEqualTo(2);

        JsonNode events = http.get("/actuator/guardevents?name=limit-events").json().path("events");

        assertThat(types(events)).containsExactly("RATE_LIMITED", "RATE_LIMITED");
        JsonNode rejection = events.get(0);
        assertThat(rejection.path("source").asText()).isEqualTo("RATE_LIMITER");
        assertThat(rejection.path("name").asText()).isEqualTo("limit-events");
    }

    @Test
    void aBadFilterIs400NamingTheValue() {
        Http.Response unknownType = http.get("/actuator/guardevents?type=STATE_TRANSITION,EXPLODED");
        assertThat(unknownType.status()).isEqualTo(400);
        assertThat(unknownType.json().path("error").asText()).startsWith("Unknown event type 'EXPLODED'; expected one of");

        Http.Response negativeLimit = http.get("/actuator/guardevents?limit=-1");
        assertThat(negativeLimit.status()).isEqualTo(400);
        assertThat(negativeLimit.json().path("error").asText()).isEqualTo("'limit' must not be negative but was -1");
    }

    @Test
    void anUnknownNameHasNoEvents() {
        Http.Response response = http.get("/actuator/guardevents?name=nobody-here");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().path("events")).isEmpty();
        assertThat(breakers.find("nobody-here")).isEmpty();
    }
}
