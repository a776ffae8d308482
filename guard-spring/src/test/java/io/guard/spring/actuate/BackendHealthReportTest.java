package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreaker;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.spring.actuate.GuardHealthReports.Report;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * What Guard's health says while the rate-limit backend does not answer: the application is only failing requests
 * when some limit is FAIL_CLOSED; otherwise the limits serve by their policy and the component says how.
 */
class BackendHealthReportTest {

    private final RateLimiterRegistry limiters = new RateLimiterRegistry(new FailoverRateLimiter(new Unreachable(),
            new LocalRateLimiter(Clock.systemUTC()),
            CircuitBreaker.of("guard-rate-limit-backend", FailoverRateLimiter.recommendedBreakerConfig()),
            Clock.systemUTC()), Clock.systemUTC(), 16);

    @AfterEach
    void close() {
        limiters.close();
        limiters.backend().close();
    }

    @Test
    void failsOverWhileEveryLimitCanStillServe() {
        limiters.register(policy("search", BackendFailurePolicy.FAIL_OPEN));
        limiters.register(policy("cart", BackendFailurePolicy.LOCAL));
        assertThat(limiters.tryAcquire("search", "k", 1).allowed()).isTrue();

        Report report = GuardHealthReports.of(null, limiters, name -> false).backend();

        assertThat(report.status()).isEqualTo(GuardHealthReports.FAILING_OVER);
        assertThat(report.description()).contains("every limit decides by its on-backend-failure policy");
        assertThat(report.details().get("failurePolicies")).isEqualTo(Map.of(
                "cart", "LOCAL: calls are counted in this instance",
                "search", "FAIL_OPEN: calls are allowed without counting"));
        assertThat(report.details().get("lastError")).asString().contains("ConnectException");
    }

    @Test
    void saysSinceWhenAndWhyTheLimitsFollowTheirFailurePolicy() {
        limiters.register(policy("search", BackendFailurePolicy.FAIL_OPEN));
        Instant before = Instant.now();
        limiters.tryAcquire("search", "k", 1);
        limiters.tryAcquire("search", "k", 1);

        Report report = GuardHealthReports.of(null, limiters, name -> false).backend();

        assertThat(report.details().get("reason")).isEqualTo("connection");
        Instant since = Instant.parse((String) report.details().get("since"));
        assertThat(since).isBetween(before, Instant.now());
    }

    @Test
    void isDownOnceSomeLimitRefusesItsCalls() {
        limiters.register(policy("search", BackendFailurePolicy.FAIL_OPEN));
        limiters.register(policy("payment", BackendFailurePolicy.FAIL_CLOSED));
        assertThat(catchThrowable(() -> limiters.tryAcquire("payment", "k", 1)))
                .isInstanceOf(RateLimiterBackendException.class);

        Report report = GuardHealthReports.of(null, limiters, name -> false).backend();

        assertThat(report.status()).isEqualTo("DOWN");
        assertThat(report.details().get("failurePolicies")).asString()
                .contains("payment=FAIL_CLOSED: calls are refused with 503");
    }

    @Test
    void isUpWithoutPolicyDetailsWhileTheBackendAnswers() {
        var local = new RateLimiterRegistry(new LocalRateLimiter(Clock.systemUTC()), Clock.systemUTC(), 16);
        local.register(policy("search", BackendFailurePolicy.FAIL_CLOSED));
        local.tryAcquire("search", "k", 1);

        Report report = GuardHealthReports.of(null, local, name -> false).backend();

        assertThat(report.status()).isEqualTo("UP");
        assertThat(report.details()).doesNotContainKey("failurePolicies");
        local.close();
    }

    private static RateLimitPolicy policy(String name, BackendFailurePolicy onFailure) {
        return new RateLimitPolicy(name, Algorithm.SLIDING_LOG, 10, Duration.ofMinutes(1), 0, Scope.GLOBAL,
                TimeSource.SERVER, onFailure);
    }

    /** A backend whose server refuses connections, as Redis does while it is stopped. */
    private static final class Unreachable implements RateLimiter {

        @Override
        public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
            return CompletableFuture.failedFuture(refused());
        }

        private static RateLimiterBackendException refused() {
            return new RateLimiterBackendException("connection refused", new ConnectException("Connection refused"));
        }

        @Override
        public String backendName() {
            return "redis";
        }

        @Override
        public void close() {
        }
    }
}
