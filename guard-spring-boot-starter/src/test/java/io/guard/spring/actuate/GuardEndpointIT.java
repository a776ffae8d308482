package io.guard.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code /actuator/guard} with the access a user gets by default: read-only. */
@GuardActuatorTest
class GuardEndpointIT {

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
    void listsEveryBreakerWithStateRatesCountsAndThresholds() {
        CircuitBreaker inventory = breakers.circuitBreaker("inventory");
        Calls.succeed(inventory, 3);
        Calls.fail(inventory, 1);

        Http.Response response = http.get("/actuator/guard");

        assertThat(response.status()).isEqualTo(200);
        JsonNode breaker = response.json().path("circuitBreakers").path("inventory");
        assertThat(breaker.path("type").asText()).isEqualTo("circuit-breaker");
        assertThat(breaker.path("state").asText()).isEqualTo("CLOSED");
        assertThat(breaker.path("remainingOpenTimeMs").asLong()).isZero();
        JsonNode metrics = breaker.path("metrics");
        assertThat(metrics.path("failureRate").isNumber()).isTrue();
        assertThat(metrics.path("failureRate").asDouble()).isEqualTo(25.0);
        assertThat(metrics.path("slowCallRate").asDouble()).isEqualTo(0.0);
        assertThat(metrics.path("bufferedCalls").asInt()).isEqualTo(4);
        assertThat(metrics.path("failedCalls").asInt()).isEqualTo(1);
        assertThat(metrics.path("slowCalls").asInt()).isZero();
        assertThat(metrics.path("notPermittedCalls").asLong()).isZero();
        JsonNode config = breaker.path("config");
        assertThat(config.path("failureRateThreshold").asDouble()).isEqualTo(50.0);
        assertThat(config.path("slowCallRateThreshold").asDouble()).isEqualTo(100.0);
        assertThat(config.path("slidingWindowType").asText()).isEqualTo("COUNT_BASED");
        assertThat(config.path("slidingWindowSize").asInt()).isEqualTo(4);
        assertThat(config.path("minimumNumberOfCalls").asInt()).isEqualTo(2);
        assertThat(config.path("waitDurationInOpenStateMs").asLong()).isEqualTo(3_600_000);
    }

    @Test
    void showsTheTimeLeftInOpenAndTheRefusedCalls() {
        CircuitBreaker shipping = breakers.circuitBreaker("shipping");
        Calls.fail(shipping, 2);
        Calls.refused(shipping, 3);

        JsonNode breaker = http.get("/actuator/guard/shipping").json();

        assertThat(breaker.path("name").asText()).isEqualTo("shipping");
        JsonNode cb = breaker.path("circuitBreaker");
        assertThat(cb.path("state").asText()).isEqualTo("OPEN");
        assertThat(cb.path("remainingOpenTimeMs").asLong()).isBetween(3_500_000L, 3_600_000L);
        assertThat(cb.path("metrics").path("failureRate").asDouble()).isEqualTo(100.0);
        assertThat(cb.path("metrics").path("notPermittedCalls").asLong()).isEqualTo(3);
        assertThat(breaker.has("rateLimiter")).isFalse();
    }

    @Test
    void listsEveryLimiterWithPolicyBackendAndCounts() {
        assertThat(LimitedService.rejections(limited::orders, 4)).isEqualTo(1);

        JsonNode report = http.get("/actuator/guard").json();

        JsonNode limiter = report.path("rateLimiters").path("orders");
        assertThat(limiter.path("type").asText()).isEqualTo("rate-limiter");
        JsonNode policy = limiter.path("policy");
        assertThat(policy.path("algorithm").asText()).isEqualTo("SLIDING_LOG");
        assertThat(policy.path("rate").asLong()).isEqualTo(3);
        assertThat(policy.path("intervalMs").asLong()).isEqualTo(60_000);
        assertThat(policy.path("burst").asLong()).isEqualTo(3);
        assertThat(policy.path("scope").asText()).isEqualTo("GLOBAL");
        assertThat(policy.path("onBackendFailure").asText()).isEqualTo("FAIL_OPEN");
        assertThat(limiter.path("backend").path("name").asText()).isEqualTo("local");
        assertThat(limiter.path("backend").path("status").asText()).isEqualTo("UP");
        assertThat(limiter.path("backend").has("lastError")).isFalse();
        JsonNode stats = limiter.path("stats");
        assertThat(stats.path("permitted").asLong()).isEqualTo(3);
        assertThat(stats.path("rejected").asLong()).isEqualTo(1);
        assertThat(stats.path("errors").asLong()).isZero();
        assertThat(report.path("rateLimiters").fieldNames()).toIterable()
                .contains("limit-events", "limit-metered", "limit-streamed", "orders");

        JsonNode one = http.get("/actuator/guard/orders").json();
        assertThat(one.path("rateLimiter")).isEqualTo(limiter);
        assertThat(one.has("circuitBreaker")).isFalse();
    }

    @Test
    void anUnknownNameIs404AndCreatesNothing() {
        Http.Response response = http.get("/actuator/guard/no-such-breaker");

        assertThat(response.status()).isEqualTo(404);
        assertThat(breakers.find("no-such-breaker")).isEmpty();
    }

    @Test
    void refusesStateChangesUnlessWriteAccessIsGranted() {
        CircuitBreaker billing = breakers.circuitBreaker("billing");

        Http.Response response = http.post("/actuator/guard/billing", "{\"state\":\"FORCED_OPEN\"}");

        assertThat(response.status()).isEqualTo(405);
        assertThat(billing.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void limitOverridesAreNotExposedWithoutWriteAccess() {
        Http.Response posted = http.post("/actuator/guard/orders", "{\"rate\":100}");
        Http.Response deleted = http.delete("/actuator/guard/orders");

        assertThat(posted.status()).isEqualTo(405);
        assertThat(deleted.status()).isEqualTo(405);
        assertThat(http.get("/actuator/guard/orders").json().path("rateLimiter").path("policy").path("rate").asLong())
                .isEqualTo(3);
    }
}
