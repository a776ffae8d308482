package io.guard.sample;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.sample.inventory.InventoryDownstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Starts the sample on a random port with its own embedded Redis and checks the HTTP surface the README promises.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"sample.redis.embedded=always", "sample.inventory.latency=0ms"})
class OrderServiceIT {

    private static final String HEALTHY = "{\"failureRate\": 0.0, \"latencyMs\": 0}";

    @LocalServerPort
    int port;

    @Autowired
    InventoryDownstream downstream;

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
    void placesAnOrderAndReadsItBack() {
        Http.Answer created = http.post("/orders?userId=7");

        assertThat(created.status()).as("%s", created).isEqualTo(201);
        JsonNode order = created.body();
        assertThat(order.get("userId").asLong()).isEqualTo(7);
        assertThat(order.get("status").asText()).isEqualTo("CREATED");
        assertThat(order.get("createdAt").asText()).isNotBlank();
        long id = order.get("id").asLong();
        assertThat(created.header("Location")).endsWith("/orders/" + id);

        Http.Answer read = http.get("/orders/" + id);
        assertThat(read.status()).as("%s", read).isEqualTo(200);
        assertThat(read.body()).isEqualTo(order);
    }

    @Test
    void answersProblemDetailsForUnknownOrdersAndMissingUsers() {
        Http.Answer unknown = http.get("/orders/999999");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.header("Content-Type")).startsWith("application/problem+json");
        assertThat(unknown.body().get("detail").asText()).isEqualTo("No order with id 999999");

        Http.Answer noUser = http.post("/orders");
        assertThat(noUser.status()).isEqualTo(400);
        assertThat(noUser.body().get("detail").asText()).contains("userId");
    }

    @Test
    void answersStockFromTheDownstream() {
        long callsBefore = downstream.calls();

        Http.Answer stock = http.get("/inventory/BOOK-42");

        assertThat(stock.status()).as("%s", stock).isEqualTo(200);
        JsonNode body = stock.body();
        assertThat(body.get("sku").asText()).isEqualTo("BOOK-42");
        assertThat(body.get("available").asInt()).isBetween(1, 100);
        assertThat(body.get("degraded").asBoolean()).isFalse();
        assertThat(downstream.calls()).isEqualTo(callsBefore + 1);
    }

    @Test
    void answersOutOfStockWith409() {
        Http.Answer soldOut = http.get("/inventory/SOLD-OUT-1");

        assertThat(soldOut.status()).as("%s", soldOut).isEqualTo(409);
        assertThat(soldOut.header("Content-Type")).startsWith("application/problem+json");
        assertThat(soldOut.body().get("title").asText()).isEqualTo("Out of stock");
        assertThat(soldOut.body().get("sku").asText()).isEqualTo("SOLD-OUT-1");
    }

    @Test
    void changesAndShowsTheChaosSettings() {
        Http.Answer put = http.put("/chaos/inventory", "{\"failureRate\": 0.25, \"latencyMs\": 5}");
        assertThat(put.status()).as("%s", put).isEqualTo(200);

        JsonNode current = http.get("/chaos/inventory").body();
        assertThat(current.get("failureRate").asDouble()).isEqualTo(0.25);
        assertThat(current.get("latencyMs").asLong()).isEqualTo(5);
    }

    @Test
    void rejectsBadChaosSettingsNamingTheField() {
        Http.Answer tooLikely = http.put("/chaos/inventory", "{\"failureRate\": 1.5, \"latencyMs\": 0}");
        assertThat(tooLikely.status()).isEqualTo(400);
        assertThat(tooLikely.header("Content-Type")).startsWith("application/problem+json");
        assertThat(tooLikely.body().get("detail").asText())
                .isEqualTo("failureRate must be between 0.0 and 1.0 but was 1.5");
        assertThat(tooLikely.body().get("fields").get(0).asText()).isEqualTo("failureRate");

        Http.Answer negative = http.put("/chaos/inventory", "{\"failureRate\": 0, \"latencyMs\": -1}");
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.body().get("detail").asText()).isEqualTo("latencyMs must be between 0 and 60000 ms but was -1");

        Http.Answer missing = http.put("/chaos/inventory", "{\"latencyMs\": 10}");
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.body().get("detail").asText()).startsWith("failureRate is required");

        Http.Answer wrongType = http.put("/chaos/inventory", "{\"failureRate\": \"often\", \"latencyMs\": 10}");
        assertThat(wrongType.status()).isEqualTo(400);
        assertThat(wrongType.body().get("detail").asText()).isEqualTo("failureRate must be a number but was 'often'");

        assertThat(http.get("/chaos/inventory").body().get("failureRate").asDouble()).isEqualTo(0.0);
    }

    @Test
    void showsHealthWithItsComponents() {
        Http.Answer health = http.get("/actuator/health");

        assertThat(health.status()).as("%s", health).isEqualTo(200);
        assertThat(health.body().get("status").asText()).isEqualTo("UP");
        assertThat(health.body().get("components").has("redis")).as("%s", health).isTrue();
    }
}
