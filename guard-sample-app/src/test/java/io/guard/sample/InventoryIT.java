package io.guard.sample;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.sample.inventory.InventoryDownstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * GET /inventory/{sku} through the {@code inventory} breaker, configured as in seed 004: opens on 50% failures or
 * 50% calls slower than 600 ms once 5 calls were seen, waits 3 s, closes after 3 good trial calls.
 */
@SampleAppTest
class InventoryIT {

    @LocalServerPort
    int port;

    @Autowired
    InventoryDownstream downstream;

    @Autowired
    CircuitBreakerRegistry breakers;

    Http http;
    CircuitBreaker breaker;

    @BeforeEach
    void closedBreakerAndHealthyDownstream() {
        http = new Http(port);
        breaker = breakers.circuitBreaker("inventory");
        heal();
    }

    @AfterEach
    void heal() {
        assertThat(http.put("/chaos/inventory", ChaosIT.HEALTHY).status()).isEqualTo(200);
        breaker.reset();
    }

    @Test
    void usesTheSettingsOfSeed004() {
        var config = breaker.config();
        assertThat(config.slidingWindowSize()).isEqualTo(20);
        assertThat(config.minimumNumberOfCalls()).isEqualTo(5);
        assertThat(config.failureRateThreshold()).isEqualTo(50f);
        assertThat(config.slowCallDurationThreshold()).isEqualTo(Duration.ofMillis(600));
        assertThat(config.slowCallRateThreshold()).isEqualTo(50f);
        assertThat(config.waitDurationInOpenState()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.permittedNumberOfCallsInHalfOpenState()).isEqualTo(3);
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
    void answersOutOfStockWith409AndTheBreakerIgnoresIt() {
        for (int i = 0; i < 10; i++) {
            Http.Answer soldOut = http.get("/inventory/SOLD-OUT-1");
            assertThat(soldOut.status()).as("%s", soldOut).isEqualTo(409);
            assertThat(soldOut.header("Content-Type")).startsWith("application/problem+json");
            assertThat(soldOut.body().get("title").asText()).isEqualTo("Out of stock");
            assertThat(soldOut.body().get("sku").asText()).isEqualTo("SOLD-OUT-1");
        }

        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        assertThat(breaker.snapshot().calls()).isZero();
    }

    @Test
    void opensWhenTheDownstreamFailsAndSparesItWhileOpen() {
        assertThat(http.put("/chaos/inventory", "{\"failureRate\": 1.0, \"latencyMs\": 0}").status()).isEqualTo(200);
        long callsBefore = downstream.calls();

        for (int i = 0; i < 5; i++) {
            assertThat(http.get("/inventory/BOOK-42").body().get("degraded").asBoolean()).isTrue();
        }
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(downstream.calls()).isEqualTo(callsBefore + 5);

        // The breaker stays OPEN for 3 s of real time: only calls made well inside that wait are counted, so a
        // slow machine cannot let a HALF_OPEN trial call into the count.
        int whileOpen = 0;
        while (whileOpen < 20 && breaker.remainingOpenTime().toMillis() > 1000) {
            Http.Answer degraded = http.get("/inventory/BOOK-42");
            assertThat(degraded.status()).isEqualTo(200);
            assertThat(degraded.body().get("degraded").asBoolean()).isTrue();
            assertThat(degraded.body().get("available").asInt()).isZero();
            whileOpen++;
        }
        assertThat(whileOpen).as("calls made while OPEN").isPositive();
        assertThat(downstream.calls()).as("calls reaching the downstream while OPEN").isEqualTo(callsBefore + 5);
    }

    @Test
    void opensWhenHalfOfTheCallsAreSlowerThan600Ms() {
        assertThat(http.put("/chaos/inventory", "{\"failureRate\": 0.0, \"latencyMs\": 650}").status()).isEqualTo(200);

        // Five at once, on threads of their own (the common pool may have a single thread on a small machine).
        ExecutorService callers = Executors.newFixedThreadPool(5);
        try {
            List<CompletableFuture<Http.Answer>> slow = IntStream.range(0, 5)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> http.get("/inventory/SLOW-" + i), callers))
                    .toList();
            slow.forEach(call -> assertThat(call.join().body().get("degraded").asBoolean())
                    .as("a slow answer is still the downstream's answer").isFalse());
        } finally {
            callers.shutdownNow();
        }
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(breaker.snapshot().slowCalls()).isEqualTo(5);
        assertThat(http.get("/inventory/BOOK-42").body().get("degraded").asBoolean()).isTrue();
    }

    @Test
    void closesAgainAfterThreeGoodTrialCalls() {
        breaker.transitionToOpenState();

        awaitState(State.HALF_OPEN, Duration.ofSeconds(10));
        for (int i = 0; i < 3; i++) {
            assertThat(http.get("/inventory/BOOK-42").body().get("degraded").asBoolean()).isFalse();
        }

        assertThat(breaker.state()).isEqualTo(State.CLOSED);
    }

    /** The wait in OPEN is 3 s of real time: poll with a deadline rather than sleep a guessed amount. */
    private void awaitState(State expected, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (breaker.state() != expected && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + expected, e);
            }
        }
        assertThat(breaker.state()).as("breaker state after up to %s", within).isEqualTo(expected);
    }
}
