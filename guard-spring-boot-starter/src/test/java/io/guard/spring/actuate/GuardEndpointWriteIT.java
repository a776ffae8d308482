package io.guard.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code POST /actuator/guard/{name}} once {@code management.endpoint.guard.access=unrestricted}. */
@GuardOperatorTest
class GuardEndpointWriteIT {

    @LocalServerPort
    int port;

    @Autowired
    CircuitBreakerRegistry breakers;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @ParameterizedTest
    @CsvSource({ "FORCED_OPEN, FORCED_OPEN", "open, OPEN", "HALF_OPEN, HALF_OPEN", "DISABLED, DISABLED",
            "METRICS_ONLY, METRICS_ONLY", "CLOSED, CLOSED" })
    void movesABreakerToTheStateAskedFor(String asked, String expected) {
        CircuitBreaker breaker = breakers.circuitBreaker("tx-" + expected.toLowerCase());
        if (expected.equals("CLOSED")) {
            breaker.transitionToForcedOpenState();
        }

        Http.Response response = http.post("/actuator/guard/" + breaker.name(), "{\"state\":\"" + asked + "\"}");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().path("state").asText()).isEqualTo(expected);
        assertThat(breaker.state()).isEqualTo(State.valueOf(expected));
    }

    @Test
    void resetClosesTheBreakerAndEmptiesItsWindow() {
        CircuitBreaker breaker = breakers.circuitBreaker("to-reset");
        Calls.fail(breaker, 2);
        Calls.refused(breaker, 1);

        Http.Response response = http.post("/actuator/guard/to-reset", "{\"state\":\"reset\"}");

        assertThat(response.status()).isEqualTo(200);
        JsonNode body = response.json();
        assertThat(body.path("state").asText()).isEqualTo("CLOSED");
        assertThat(body.path("metrics").path("bufferedCalls").asInt()).isZero();
        assertThat(body.path("metrics").path("notPermittedCalls").asLong()).isZero();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void anUnknownBreakerIs404AndIsNotCreated() {
        Http.Response response = http.post("/actuator/guard/ghost", "{\"state\":\"FORCED_OPEN\"}");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.json().path("error").asText()).isEqualTo("No circuit breaker named 'ghost'");
        assertThat(breakers.find("ghost")).isEmpty();
    }

    @Test
    void anUnknownStateIs400NamingTheValueAndChangesNothing() {
        CircuitBreaker breaker = breakers.circuitBreaker("typo");

        Http.Response response = http.post("/actuator/guard/typo", "{\"state\":\"HALF_CLOSED\"}");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().path("error").asText()).isEqualTo("Unknown state 'HALF_CLOSED'; expected one of "
                + "CLOSED, OPEN, HALF_OPEN, FORCED_OPEN, DISABLED, METRICS_ONLY, reset");
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void aMissingStateIs400() {
        breakers.circuitBreaker("no-body");

        Http.Response response = http.post("/actuator/guard/no-body", "{}");

        assertThat(response.status()).isEqualTo(400);
    }

    @Test
    void overridesALimitAndDeletingTheOverrideRestoresConfiguration() {
        Http.Response response = http.post("/actuator/guard/orders", "{\"rate\":10,\"interval\":\"30s\"}");

        assertThat(response.status()).isEqualTo(200);
        JsonNode limiter = response.json();
        assertThat(limiter.path("policy").path("rate").asLong()).isEqualTo(10);
        assertThat(limiter.path("policy").path("intervalMs").asLong()).isEqualTo(30_000);
        assertThat(limiter.path("source").asText()).isEqualTo("override");
        assertThat(limiter.path("override").path("by").asText()).isEqualTo("actuator");
        assertThat(limiter.path("override").path("configured").path("rate").asLong()).isEqualTo(3);
        assertThat(http.get("/actuator/guard/orders").json().path("rateLimiter").path("source").asText())
                .isEqualTo("override");

        Http.Response removed = http.delete("/actuator/guard/orders");

        assertThat(removed.status()).isEqualTo(200);
        assertThat(removed.json().path("policy").path("rate").asLong()).isEqualTo(3);
        assertThat(removed.json().path("source").asText()).isEqualTo("configuration");
        assertThat(removed.json().has("override")).isFalse();
    }

    @Test
    void aBadOverrideIs400NamingTheFieldAndValue() {
        Http.Response response = http.post("/actuator/guard/orders", "{\"interval\":\"soon\"}");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().path("error").asText()).startsWith("interval 'soon' is not a duration");
    }
}
