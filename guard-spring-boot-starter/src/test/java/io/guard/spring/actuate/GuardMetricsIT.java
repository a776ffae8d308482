package io.guard.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Guard's meters after a scripted sequence of calls, read where users read them: {@code /actuator/metrics} and
 * {@code /actuator/prometheus}. The breakers are created after start-up, so they also prove late binding.
 */
@GuardActuatorTest
class GuardMetricsIT {

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

    private double measurement(String meter, String statistic, String... tags) {
        StringBuilder path = new StringBuilder("/actuator/metrics/").append(meter);
        for (int i = 0; i < tags.length; i++) {
            path.append(i == 0 ? '?' : '&').append("tag=").append(tags[i]);
        }
        Http.Response response = http.get(path.toString());
        assertThat(response.status()).as(path.toString()).isEqualTo(200);
        for (JsonNode m : response.json().path("measurements")) {
            if (m.path("statistic").asText().equals(statistic)) {
                return m.path("value").asDouble();
            }
        }
        throw new AssertionError("No " + statistic + " in " + response.body());
    }

    @Test
    void breakerMetersCountEveryCallByOutcome() {
        CircuitBreaker metered = breakers.circuitBreaker("metered");
        Calls.succeed(metered, 3);
        Calls.failIgnored(metered, 1);
        Calls.fail(metered, 1);
        assertThat(measurement("guard.circuitbreaker.failure.rate", "VALUE", "name:metered")).isEqualTo(25.0);
        assertThat(measurement("guard.circuitbreaker.slow.call.rate", "VALUE", "name:metered")).isZero();
        metered.transitionToForcedOpenState();
        Calls.refused(metered, 2);

        assertThat(measurement("guard.circuitbreaker.calls", "COUNT", "name:metered", "kind:successful")).isEqualTo(3);
        assertThat(measurement("guard.circuitbreaker.calls", "COUNT", "name:metered", "kind:failed")).isEqualTo(1);
        assertThat(measurement("guard.circuitbreaker.calls", "COUNT", "name:metered", "kind:ignored")).isEqualTo(1);
        assertThat(measurement("guard.circuitbreaker.not.permitted.calls", "COUNT", "name:metered")).isEqualTo(2);
        assertThat(measurement("guard.circuitbreaker.state", "VALUE", "name:metered", "state:forced_open"))
                .isEqualTo(1);
        assertThat(measurement("guard.circuitbreaker.state", "VALUE", "name:metered", "state:closed")).isZero();
        assertThat(measurement("guard.circuitbreaker.state", "VALUE", "name:metered")).as("one state at a time")
                .isEqualTo(1);
    }

    @Test
    void limiterMetersCountDecisionsByResultAndTimeTheBackend() {
        assertThat(LimitedService.rejections(limited::metered, 5)).isEqualTo(2);

        assertThat(measurement("guard.ratelimit.requests", "COUNT", "name:limit-metered", "result:permitted"))
                .isEqualTo(3);
        assertThat(measurement("guard.ratelimit.requests", "COUNT", "name:limit-metered", "result:rejected"))
                .isEqualTo(2);
        assertThat(measurement("guard.ratelimit.requests", "COUNT", "name:limit-metered", "result:error")).isZero();
        assertThat(measurement("guard.ratelimit.backend.latency", "COUNT", "name:limit-metered")).isEqualTo(5);
        assertThat(measurement("guard.ratelimit.backend.latency", "TOTAL_TIME", "name:limit-metered")).isPositive();
        Http.Response tags = http.get("/actuator/metrics/guard.ratelimit.requests");
        assertThat(tags.body()).as("only bounded tags").doesNotContain("key");
    }

    @Test
    void ratesAreMinusOneUntilTheMinimumNumberOfCalls() {
        Calls.succeed(breakers.circuitBreaker("metered-young"), 1);

        assertThat(measurement("guard.circuitbreaker.failure.rate", "VALUE", "name:metered-young")).isEqualTo(-1);
    }

    @Test
    void prometheusScrapesTheSameMeters() {
        CircuitBreaker scraped = breakers.circuitBreaker("scraped");
        Calls.succeed(scraped, 2);
        Calls.fail(scraped, 2);
        Calls.refused(scraped, 1);

        Http.Response response = http.get("/actuator/prometheus");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body())
                .contains("guard_circuitbreaker_calls_seconds_count{kind=\"successful\",name=\"scraped\"} 2")
                .contains("guard_circuitbreaker_calls_seconds_count{kind=\"failed\",name=\"scraped\"} 2")
                .contains("guard_circuitbreaker_not_permitted_calls_total{name=\"scraped\"} 1")
                .contains("guard_circuitbreaker_state{name=\"scraped\",state=\"open\"} 1")
                .contains("guard_circuitbreaker_state{name=\"scraped\",state=\"closed\"} 0")
                .contains("guard_circuitbreaker_failure_rate_percent{name=\"scraped\"} 50");
    }
}
