package io.guard.sample;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/** The management views the README's tour shows. */
@SampleAppTest
class ActuatorIT {

    @LocalServerPort
    int port;

    @Test
    void showsHealthWithItsComponents() {
        Http.Answer health = new Http(port).get("/actuator/health");

        assertThat(health.status()).as("%s", health).isEqualTo(200);
        assertThat(health.body().get("status").asText()).isEqualTo("UP");
        // Redis is Guard's business here (its rateLimitBackend component), not an application-wide health check:
        // with the plain redisson jar no Spring Data Redis indicator can take the application DOWN
        assertThat(health.body().get("components").has("guard")).as("%s", health).isTrue();
        assertThat(health.body().get("components").has("redis")).as("%s", health).isFalse();
    }

    @Test
    void showsTheBreakerAndTheLimitsInTheGuardView() {
        Http http = new Http(port);

        Http.Answer guard = http.get("/actuator/guard");

        assertThat(guard.status()).as("%s", guard).isEqualTo(200);
        JsonNode inventory = guard.body().get("circuitBreakers").get("inventory");
        assertThat(inventory.get("config").get("slowCallDurationThresholdMs").asLong()).isEqualTo(600);
        assertThat(inventory.get("config").get("waitDurationInOpenStateMs").asLong()).isEqualTo(3000);
        JsonNode submit = guard.body().get("rateLimiters").get("order-submit");
        assertThat(submit.get("policy").get("rate").asLong()).isEqualTo(5);
        assertThat(submit.get("policy").get("intervalMs").asLong()).isEqualTo(60_000);
        assertThat(submit.get("backend").get("name").asText()).isEqualTo("redis");
        JsonNode detail = guard.body().get("rateLimiters").get("order-detail");
        assertThat(detail.get("policy").get("rate").asLong()).isEqualTo(100);
        assertThat(detail.get("lease").asText()).as("@RateLimit(lease = \"auto\")").isEqualTo("auto");
        assertThat(submit.hasNonNull("lease")).as("an exact limit shows no lease").isFalse();
        assertThat(guard.body().get("leases").get("leasesTaken").asLong()).isNotNegative();

        Http.Answer one = http.get("/actuator/guard/inventory");
        assertThat(one.status()).isEqualTo(200);
        assertThat(one.body().get("circuitBreaker").get("state").asText()).isIn("CLOSED", "OPEN", "HALF_OPEN");
    }

    @Test
    void listsRecentEventsByNameAndType() {
        Http http = new Http(port);
        assertThat(http.get("/inventory/SOLD-OUT-EVENTS").status()).isEqualTo(409);

        Http.Answer events = http.get("/actuator/guardevents?name=inventory&type=IGNORED_ERROR");

        assertThat(events.status()).as("%s", events).isEqualTo(200);
        JsonNode newest = events.body().get("events").get(0);
        assertThat(newest.get("name").asText()).isEqualTo("inventory");
        assertThat(newest.get("details").get("error").asText())
                .isEqualTo("io.guard.sample.inventory.OutOfStockException");
    }

    @Test
    void probesKeepRedisOutOfLivenessAndGuardInReadiness() {
        Http.Answer liveness = new Http(port).get("/actuator/health/liveness");
        Http.Answer readiness = new Http(port).get("/actuator/health/readiness");

        assertThat(liveness.status()).as("%s", liveness).isEqualTo(200);
        assertThat(liveness.body().get("components").fieldNames()).toIterable().containsExactly("livenessState");
        assertThat(readiness.status()).as("%s", readiness).isEqualTo(200);
        assertThat(readiness.body().get("components").fieldNames()).toIterable()
                .containsExactlyInAnyOrder("readinessState", "guard");
    }

    @Test
    void reportsTheBreakerAndTheLimitBackendInHealth() {
        JsonNode guard = new Http(port).get("/actuator/health").body().get("components").get("guard");

        assertThat(guard.get("components").get("circuitBreakers").get("components").has("inventory")).isTrue();
        assertThat(guard.get("components").get("rateLimitBackend").get("details").get("backend").asText())
                .isEqualTo("redis");
    }

    @Test
    void exposesMetricsAndPrometheus() {
        Http http = new Http(port);

        assertThat(http.post("/orders?userId=2001").status()).isEqualTo(201);
        assertThat(http.get("/actuator/metrics").status()).isEqualTo(200);
        Http.Answer prometheus = http.get("/actuator/prometheus", "text/plain");
        assertThat(prometheus.status()).isEqualTo(200);
        assertThat(prometheus.response().body())
                .contains("guard_circuitbreaker_state{name=\"inventory\",state=\"closed\"}")
                .contains("guard_ratelimit_requests_total{name=\"order-submit\"");
    }
}
