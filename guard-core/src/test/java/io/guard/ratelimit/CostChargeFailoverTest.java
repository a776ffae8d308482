package io.guard.ratelimit;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A cost charged after the call through the registry and the failover: observers hear every charge with the quota it
 * left, a charge the backend cannot make fails its stage (the caller logs and counts it, never fails the call), and a
 * {@code LOCAL} limit is charged in process while the backend cannot answer, where its calls are decided meanwhile.
 */
class CostChargeFailoverTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final ManualClock breakerClock = new ManualClock();
    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.builder().clock(breakerClock)
            .scheduler(breakerClock).build();
    private final SwitchableBackend redis = new SwitchableBackend(new LocalRateLimiter(clock));
    private final FailoverRateLimiter failover = new FailoverRateLimiter(redis, new LocalRateLimiter(clock),
            breakers.circuitBreaker("rate-limit-backend", FailoverRateLimiter.recommendedBreakerConfig()), clock,
            breakerClock);
    private final RateLimiterRegistry registry = new RateLimiterRegistry(failover, clock, 20);
    private final List<String> heard = new CopyOnWriteArrayList<>();

    CostChargeFailoverTest() {
        registry.addObserver(new RateLimitObserver() {
            @Override
            public void onDecision(RateLimitPolicy policy, Decision decision, long latencyNanos) {
            }

            @Override
            public void onBackendError(RateLimitPolicy policy, Throwable error, long latencyNanos) {
            }

            @Override
            public void onCharge(RateLimitPolicy policy, long permits, Quota quota, Throwable error) {
                heard.add(policy.name() + " " + permits + " " + (error == null ? "debt " + quota.debt()
                        : error.getClass().getSimpleName()));
            }
        });
    }

    @AfterEach
    void close() {
        registry.close();
        failover.close();
        breakers.close();
    }

    /** 10 per second, a burst of 10. */
    private RateLimiterRegistry.Limit register(String name, BackendFailurePolicy onFailure) {
        registry.register(new RateLimitPolicy(name, Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1), 0,
                Scope.GLOBAL, TimeSource.CLIENT, onFailure));
        return registry.limit(name);
    }

    @Test
    void observersHearEachChargeWithTheDebtItLeft() {
        RateLimiterRegistry.Limit limit = register("tokens", BackendFailurePolicy.FAIL_OPEN);
        registry.tryAcquire(limit, "k", 2);

        Quota quota = registry.charge(limit, "k", 12).toCompletableFuture().join();

        assertThat(quota.debt()).isEqualTo(4);
        assertThat(heard).containsExactly("tokens 12 debt 4");
        Decision refused = registry.tryAcquire(limit, "k", 1);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void aChargeTheBackendCannotMakeFailsItsStageAndIsHeard() {
        RateLimiterRegistry.Limit limit = register("tokens", BackendFailurePolicy.FAIL_OPEN);
        redis.failing(true);

        assertThatThrownBy(() -> registry.charge(limit, "k", 5).toCompletableFuture().join())
                .isInstanceOf(CompletionException.class).hasRootCauseInstanceOf(IllegalStateException.class)
                .satisfies(e -> assertThat(e.getCause()).isInstanceOf(RateLimiterBackendException.class));
        assertThat(heard).containsExactly("tokens 5 RateLimiterBackendException");
    }

    @Test
    void aLocalLimitIsChargedInProcessWhileTheBackendCannotAnswer() {
        RateLimiterRegistry.Limit limit = register("tokens", BackendFailurePolicy.LOCAL);
        redis.failing(true);
        assertThat(registry.tryAcquire(limit, "k", 1).allowed()).isTrue();

        assertThat(registry.charge(limit, "k", 19).toCompletableFuture().join().debt()).isEqualTo(10);

        assertThat(registry.tryAcquire(limit, "k", 1).allowed()).as("decided in process, where the debt is").isFalse();
        redis.failing(false);
        assertThat(redis.inspect(limit.policy(), "k").toCompletableFuture().join().debt())
                .as("the shared quota never heard of it").isZero();
    }

    @Test
    void aCostOnALimitThatIsNotATokenBucketFailsNamingTheLimit() {
        registry.register(RateLimitPolicy.of("calls", Algorithm.SLIDING_LOG, 10, Duration.ofSeconds(1)));

        assertThatThrownBy(() -> registry.charge(registry.limit("calls"), "k", 5).toCompletableFuture().join())
                .hasRootCauseInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'calls'").hasMessageContaining("TOKEN_BUCKET");
        assertThat(heard).containsExactly("calls 5 IllegalArgumentException");
    }
}
