package io.guard.sample;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/** POST /orders and GET /orders/{id}, with their limits. Each test uses user ids no other test uses. */
@SampleAppTest
class OrdersIT {

    @LocalServerPort
    int port;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
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
    void refusesTheSixthOrderOfAUserWithinAMinuteButNotAnotherUsersFirst() {
        for (int i = 1; i <= 5; i++) {
            Http.Answer accepted = http.post("/orders?userId=1001");
            assertThat(accepted.status()).as("order %d: %s", i, accepted).isEqualTo(201);
            assertThat(accepted.header("RateLimit-Policy")).isEqualTo("\"order-submit\";q=5;w=60");
            assertThat(accepted.header("RateLimit")).startsWith("\"order-submit\";r=" + (5 - i) + ";t=");
        }

        Http.Answer refused = http.post("/orders?userId=1001");
        assertThat(refused.status()).as("%s", refused).isEqualTo(429);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(Long.parseLong(refused.header("Retry-After"))).isBetween(1L, 60L);
        assertThat(refused.header("RateLimit")).startsWith("\"order-submit\";r=0;t=");
        JsonNode problem = refused.body();
        assertThat(problem.get("status").asInt()).isEqualTo(429);
        assertThat(problem.get("type").asText()).isEqualTo("urn:problem-type:guard:rate-limited");
        assertThat(problem.get("violated-policies").get(0).asText()).isEqualTo("order-submit");

        Http.Answer otherUser = http.post("/orders?userId=1002");
        assertThat(otherUser.status()).as("%s", otherUser).isEqualTo(201);
        assertThat(otherUser.header("RateLimit")).startsWith("\"order-submit\";r=4;t=");
    }

    @Test
    void theShadowLimitRefusesNobodyButCountsWhomItWouldHaveRefused() {
        double before = shadowRejections();
        for (int i = 1; i <= 5; i++) {
            Http.Answer accepted = http.post("/orders?userId=1005");
            assertThat(accepted.status()).as("order %d: %s", i, accepted).isEqualTo(201);
            assertThat(accepted.header("RateLimit-Policy")).as("no field for the shadow limit")
                    .isEqualTo("\"order-submit\";q=5;w=60");
        }
        // order-submit-trial allows 3 per minute: orders 4 and 5 would have been refused.
        assertThat(shadowRejections() - before).isEqualTo(2.0);
    }

    private double shadowRejections() {
        Http.Answer metric = http.get(
                "/actuator/metrics/guard.ratelimit.requests?tag=name:order-submit-trial&tag=result:rejected");
        assertThat(metric.status()).as("%s", metric).isEqualTo(200);
        return metric.body().get("measurements").get(0).get("value").asDouble();
    }

    @Test
    void readsOrdersUnderOneGlobalQuota() {
        long id = http.post("/orders?userId=1003").body().get("id").asLong();

        Http.Answer read = http.get("/orders/" + id);

        assertThat(read.status()).isEqualTo(200);
        assertThat(read.header("RateLimit-Policy")).isEqualTo("\"order-detail\";q=100;w=1");
    }

    @Test
    void aStatusPolledTooOftenIsAnsweredByTheFallbackWithWhenToPollAgain() {
        long id = http.post("/orders?userId=1004").body().get("id").asLong();
        for (int i = 1; i <= 2; i++) {
            Http.Answer fresh = http.get("/orders/" + id + "/status");
            assertThat(fresh.status()).as("%s", fresh).isEqualTo(200);
            assertThat(fresh.body().get("status").asText()).isEqualTo("CREATED");
            assertThat(fresh.body().get("pollAgainInSeconds").asLong()).isZero();
        }

        Http.Answer throttled = http.get("/orders/" + id + "/status");
        assertThat(throttled.status()).as("%s", throttled).isEqualTo(200);
        assertThat(throttled.body().get("status").isNull()).isTrue();
        assertThat(throttled.body().get("pollAgainInSeconds").asLong()).isBetween(1L, 10L);
        assertThat(throttled.header("Retry-After")).isNull();
        assertThat(throttled.header("RateLimit")).startsWith("\"order-status\";r=0;t=");
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
}
