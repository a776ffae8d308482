package io.guard.sample;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample as Spring AOT processed it at build time (the {@code process-aot} execution of this module's pom), started
 * with {@code -Dspring.aot.enabled=true} in a JVM of its own on a real Redis: the bean definitions come from the
 * generated code instead of the auto-configurations, and Guard's runtime hints were collected next to them. A
 * refusal, both kinds of fallback and the {@code guard} endpoint must answer as on a plain start, and a setting that
 * AOT fixed at build time, given otherwise at run time, is named in a WARN.
 */
class AotSampleIT {

    private static final Duration START_BOUND = Duration.ofSeconds(120);

    @Test
    void theAotProcessedSampleRefusesFallsBackAndReports() throws IOException {
        Path generated = Path.of("target", "classes", "io", "guard", "sample",
                "OrderServiceApplication__ApplicationContextInitializer.class");
        assertThat(generated).as("process-aot's output; build with mvn verify, not only the IDE").exists();
        NativeImageHints hints = NativeImageHints.read(Path.of("target", "classes"));
        assertThat(hints.methods("io.guard.sample.order.OrderController")).as("a rate limit's fallback")
                .contains("pollLater");
        assertThat(hints.methods("io.guard.sample.inventory.InventoryService")).as("a breaker's fallback")
                .contains("degraded");
        assertThat(hints.resources()).as("guard-redis's scripts").contains("guard/lua/");
        assertThat(hints.types()).as("an exception class application.yml names in ignore-exceptions, loaded by name")
                .contains("io.guard.sample.inventory.OutOfStockException");
        assertThat(hints.resources()).as("the build-time settings Guard compares at start-up")
                .contains("META-INF/guard/aot-build-time-settings.properties");

        try (DedicatedRedis redis = RedisServers.startDedicated();
             SampleProcess sample = SampleProcess.start(Path.of("target", "aot-sample", "sample.log"),
                     List.of("-Dspring.aot.enabled=true"), "--server.port=0", "--server.address=127.0.0.1",
                     "--sample.redis.embedded=never", "--spring.data.redis.url=" + redis.url(),
                     "--sample.inventory.latency=0ms", "--guard.observations.enabled=false")) {
            Http http = new Http(sample.awaitPort(START_BOUND));
            assertThat(sample.output()).as("log %s", sample.log()).contains("Starting AOT-processed")
                    .contains("WARN").contains("guard.observations.enabled is 'false' now but was 'true' when Spring "
                            + "AOT processed the application: the build-time value is in force");

            refusesTheSixthOrder(http);
            answersAStatusPollBeyondItsLimitFromTheFallback(http);
            answersTheInventoryFromTheFallbackWhileTheDownstreamFails(http);
            reportsInTheGuardEndpoint(http);
        }
    }

    private static void refusesTheSixthOrder(Http http) {
        for (int i = 1; i <= 5; i++) {
            Http.Answer accepted = http.post("/orders?userId=4242");
            assertThat(accepted.status()).as("order %d: %s", i, accepted).isEqualTo(201);
        }
        Http.Answer refused = http.post("/orders?userId=4242");
        assertThat(refused.status()).as("%s", refused).isEqualTo(429);
        assertThat(refused.header("Retry-After")).isNotBlank();
        assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"order-submit\";q=5;w=60");
        assertThat(refused.body().get("violated-policies").get(0).asText()).isEqualTo("order-submit");
    }

    /** {@code order-status} allows 2 per 10 s; the third poll gets {@code pollLater}'s answer, a 200. */
    private static void answersAStatusPollBeyondItsLimitFromTheFallback(Http http) {
        long id = http.post("/orders?userId=77").body().get("id").asLong();
        for (int i = 1; i <= 2; i++) {
            Http.Answer polled = http.get("/orders/" + id + "/status");
            assertThat(polled.status()).as("%s", polled).isEqualTo(200);
            assertThat(polled.body().get("status").asText()).isEqualTo("CREATED");
        }
        Http.Answer fallback = http.get("/orders/" + id + "/status");
        assertThat(fallback.status()).as("%s", fallback).isEqualTo(200);
        assertThat(fallback.body().get("status").isNull()).as("%s", fallback).isTrue();
        assertThat(fallback.body().get("pollAgainInSeconds").asLong()).as("%s", fallback).isPositive();
    }

    private static void answersTheInventoryFromTheFallbackWhileTheDownstreamFails(Http http) {
        assertThat(http.put("/chaos/inventory", "{\"failureRate\": 1.0, \"latencyMs\": 0}").status()).isEqualTo(200);
        for (int i = 1; i <= 6; i++) {
            Http.Answer degraded = http.get("/inventory/BOOK-42");
            assertThat(degraded.status()).as("%s", degraded).isEqualTo(200);
            assertThat(degraded.body().get("degraded").asBoolean()).as("%s", degraded).isTrue();
        }
    }

    private static void reportsInTheGuardEndpoint(Http http) {
        Http.Answer report = http.get("/actuator/guard");
        assertThat(report.status()).as("%s", report).isEqualTo(200);
        JsonNode body = report.body();
        assertThat(body.get("rateLimiters").get("order-submit").get("stats").get("rejected").asLong())
                .as("%s", report).isEqualTo(1);
        assertThat(body.get("circuitBreakers").get("inventory").get("state").asText()).as("%s", report)
                .isEqualTo("OPEN");
        Http.Answer events = http.get("/actuator/guardevents?name=inventory&type=STATE_TRANSITION");
        assertThat(events.status()).as("%s", events).isEqualTo(200);
        assertThat(events.body().get("events").get(0).get("details").get("to").asText()).isEqualTo("OPEN");
    }
}
