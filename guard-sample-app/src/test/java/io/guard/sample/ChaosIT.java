package io.guard.sample;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/** GET and PUT /chaos/inventory: the knobs that make the downstream fail or slow down. */
@SampleAppTest
class ChaosIT {

    static final String HEALTHY = "{\"failureRate\": 0.0, \"latencyMs\": 0}";

    @LocalServerPort
    int port;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @AfterEach
    void healDownstream() {
        assertThat(http.put("/chaos/inventory", HEALTHY).status()).isEqualTo(200);
    }

    @Test
    void changesAndShowsTheSettings() {
        Http.Answer put = http.put("/chaos/inventory", "{\"failureRate\": 0.25, \"latencyMs\": 5}");
        assertThat(put.status()).as("%s", put).isEqualTo(200);

        JsonNode current = http.get("/chaos/inventory").body();
        assertThat(current.get("failureRate").asDouble()).isEqualTo(0.25);
        assertThat(current.get("latencyMs").asLong()).isEqualTo(5);
    }

    @Test
    void rejectsBadSettingsNamingTheField() {
        Http.Answer tooLikely = http.put("/chaos/inventory", "{\"failureRate\": 1.5, \"latencyMs\": 0}");
        assertThat(tooLikely.status()).isEqualTo(400);
        assertThat(tooLikely.header("Content-Type")).startsWith("application/problem+json");
        assertThat(tooLikely.body().get("detail").asText())
                .isEqualTo("failureRate must be between 0.0 and 1.0 but was 1.5");
        assertThat(tooLikely.body().get("fields").get(0).asText()).isEqualTo("failureRate");

        Http.Answer negative = http.put("/chaos/inventory", "{\"failureRate\": 0, \"latencyMs\": -1}");
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.body().get("detail").asText())
                .isEqualTo("latencyMs must be between 0 and 60000 ms but was -1");

        Http.Answer missing = http.put("/chaos/inventory", "{\"latencyMs\": 10}");
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.body().get("detail").asText()).startsWith("failureRate is required");

        Http.Answer wrongType = http.put("/chaos/inventory", "{\"failureRate\": \"often\", \"latencyMs\": 10}");
        assertThat(wrongType.status()).isEqualTo(400);
        assertThat(wrongType.body().get("detail").asText()).isEqualTo("failureRate must be a number but was 'often'");

        assertThat(http.get("/chaos/inventory").body().get("failureRate").asDouble()).isEqualTo(0.0);
    }
}
