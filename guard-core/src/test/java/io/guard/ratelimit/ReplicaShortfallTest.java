package io.guard.ratelimit;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A primary without its replicas for a while (issue 32 item 2: after a Sentinel failover, until the old primary is
 * back as a replica): the admissions of a limit that waits for a replica follow its failure policy, but Redis answers
 * every call, so the backend breaker stays closed and the other limits go on being decided by Redis.
 */
class ReplicaShortfallTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final ManualClock breakerClock = new ManualClock();
    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.builder().clock(breakerClock)
            .scheduler(breakerClock).build();
    private final CircuitBreaker breaker = breakers.circuitBreaker("rate-limit-backend",
            FailoverRateLimiter.recommendedBreakerConfig());
    private final SwitchableBackend redis = new SwitchableBackend(new LocalRateLimiter(clock));
    private final FailoverRateLimiter failover = new FailoverRateLimiter(redis, new LocalRateLimiter(clock), breaker,
            clock, breakerClock, now -> false);
    private final RateLimiterRegistry registry = new RateLimiterRegistry(failover, clock, 20);

    @AfterEach
    void close() {
        registry.close();
        failover.close();
        breakers.close();
    }

    private void register(String name, BackendFailurePolicy onFailure, ReplicaWait wait) {
        registry.register(new RateLimitPolicy(name, Algorithm.FIXED_WINDOW, 1_000, Duration.ofHours(1), 0,
                Scope.GLOBAL, TimeSource.CLIENT, onFailure).withReplicaWait(wait));
    }

    @Test
    void admissionsNoReplicaAcknowledgedFollowThePolicyWhileTheBreakerStaysClosedForEveryLimit() {
        register("submit", BackendFailurePolicy.FAIL_CLOSED, new ReplicaWait(1, Duration.ofMillis(100)));
        register("detail", BackendFailurePolicy.FAIL_CLOSED, ReplicaWait.NONE);
        redis.shortOfReplicas(true);

        for (int i = 0; i < 10; i++) {
            assertThatThrownBy(() -> registry.tryAcquire("submit", "k", 1))
                    .as("an admission no replica has is refused by FAIL_CLOSED")
                    .isInstanceOf(ReplicaShortfallException.class).hasMessageContaining("0 of 1 replicas");
        }
        assertThat(breaker.state()).as("Redis answered every call").isEqualTo(State.CLOSED);
        int before = redis.calls.get();
        assertThat(registry.tryAcquire("detail", "k", 1).allowed()).as("a limit that waits for no replica").isTrue();
        assertThat(redis.calls.get()).as("decided by Redis, not by the failure policy").isEqualTo(before + 1);
        assertThat(failover.health().orElseThrow().up()).isTrue();

        redis.shortOfReplicas(false);
        assertThat(registry.tryAcquire("submit", "k", 1).allowed())
                .as("admitted by the first call once a replica acknowledges, with no breaker wait").isTrue();
    }

    @Test
    void aFailOpenLimitAllowsWithoutCountingAndSaysWhy() {
        register("open", BackendFailurePolicy.FAIL_OPEN, new ReplicaWait(1, Duration.ofMillis(100)));
        redis.shortOfReplicas(true);

        assertThat(registry.tryAcquire("open", "k", 1).allowed()).isTrue();
        assertThat(registry.stats("open").errors()).isEqualTo(1);
        assertThat(BackendFailureReason.of(new ReplicaShortfallException("x", null)))
                .isEqualTo(BackendFailureReason.REPLICAS);
        assertThat(BackendFailureReason.REPLICAS.tag()).isEqualTo("replicas");
    }
}
