package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class GuardMetricsTest {

    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
    private final RateLimiterRegistry limiters =
            new RateLimiterRegistry(new LocalRateLimiter(Clock.systemUTC()), Clock.systemUTC(), 10);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @AfterEach
    void close() {
        breakers.close();
        limiters.close();
    }

    @Test
    void bindingTheSameRegistryTwiceCountsEachCallOnce() {
        limiters.register(RateLimitPolicy.of("api", Algorithm.FIXED_WINDOW, 2, Duration.ofMinutes(1)));
        GuardMetrics metrics = new GuardMetrics(breakers, limiters);
        metrics.bindTo(registry);
        metrics.bindTo(registry);

        Calls.succeed(breakers.circuitBreaker("db"), 3);
        for (int i = 0; i < 3; i++) {
            limiters.tryAcquire("api", "user-42", 1);
        }

        assertThat(registry.get("guard.circuitbreaker.calls").tags("name", "db", "kind", "successful").timer().count())
                .isEqualTo(3);
        assertThat(registry.get("guard.ratelimit.requests").tags("name", "api", "result", "permitted").counter()
                .count()).isEqualTo(2);
        assertThat(registry.get("guard.ratelimit.requests").tags("name", "api", "result", "rejected").counter()
                .count()).isEqualTo(1);
        assertThat(registry.get("guard.ratelimit.backend.latency").tag("name", "api").timer().count()).isEqualTo(3);
        assertThat(registry.getMeters()).allSatisfy(meter ->
                assertThat(meter.getId().getTags()).noneMatch(tag -> tag.getValue().contains("user-42")));
    }

    @Test
    void decisionsAFailurePolicyMadeAreCountedByReasonNeverByKey() {
        RateLimiterRegistry failing = new RateLimiterRegistry(new io.guard.ratelimit.FailoverRateLimiter(
                new Refusing(), new LocalRateLimiter(Clock.systemUTC()), breakers.circuitBreaker("backend",
                io.guard.ratelimit.FailoverRateLimiter.recommendedBreakerConfig()), Clock.systemUTC()),
                Clock.systemUTC(), 10);
        failing.register(RateLimitPolicy.of("api", Algorithm.FIXED_WINDOW, 2, Duration.ofMinutes(1)));
        new GuardMetrics(breakers, failing).bindTo(registry);

        for (int i = 0; i < 5; i++) {
            failing.tryAcquire("api", "user-42", 1);
        }

        assertThat(registry.get("guard.ratelimit.backend.failures").tags("name", "api", "reason", "connection")
                .counter().count()).as("refused until the breaker opened").isEqualTo(3);
        assertThat(registry.get("guard.ratelimit.backend.failures").tags("name", "api", "reason", "breaker-open")
                .counter().count()).isEqualTo(2);
        assertThat(registry.get("guard.ratelimit.backend.failures").tags("name", "api", "reason", "timeout")
                .counter().count()).isZero();
        assertThat(registry.getMeters()).allSatisfy(meter ->
                assertThat(meter.getId().getTags()).noneMatch(tag -> tag.getValue().contains("user-42")));
        failing.close();
    }

    /** A backend whose server refuses connections. */
    private static final class Refusing implements io.guard.ratelimit.RateLimiter {
        @Override
        public java.util.concurrent.CompletionStage<io.guard.ratelimit.BackendOutcome> decide(RateLimitPolicy policy,
                                                                                          String key, long permits) {
            return java.util.concurrent.CompletableFuture.failedFuture(new io.guard.ratelimit
                    .RateLimiterBackendException("refused", new java.net.ConnectException("Connection refused")));
        }

        @Override
        public String backendName() {
            return "redis";
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aLimiterShowsZeroBeforeItsFirstRequest() {
        limiters.register(RateLimitPolicy.of("quiet", Algorithm.TOKEN_BUCKET, 5, Duration.ofSeconds(1)));

        new GuardMetrics(breakers, limiters).bindTo(registry);

        assertThat(registry.get("guard.ratelimit.requests").tags("name", "quiet", "result", "error").counter()
                .count()).isZero();
    }
}
