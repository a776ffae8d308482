package io.guard.ratelimit;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.ratelimit.redis.RedisRateLimiter;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key hammered while over its limit is refused from memory; those answers must not tell the backend breaker that
 * Redis is up. Redis is really stopped; the breaker's clock is moved by hand.
 */
class RememberedRefusalsAndTheBreakerIT {

    private final DedicatedRedis server = RedisServers.startDedicated();
    private final RedissonClient client = RedissonClients.create(server.url(), 250);
    private final ManualClock breakerClock = new ManualClock();
    /** The limiter's clock stands still, so the remembered refusal cannot lapse however slowly Redis stops. */
    private final MutableClock frozen = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.builder().clock(breakerClock)
            .scheduler(breakerClock).build();
    private final CircuitBreaker breaker = breakers.circuitBreaker("rate-limit-backend",
            FailoverRateLimiter.recommendedBreakerConfig());
    private final FailoverRateLimiter failover = new FailoverRateLimiter(
            new RedisRateLimiter(client, frozen, "guard:", "it"), new LocalRateLimiter(frozen),
            breaker, frozen);
    private final RateLimitPolicy policy = new RateLimitPolicy("hammered", Algorithm.SLIDING_LOG, 1,
            Duration.ofMinutes(10), 0, Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_OPEN);

    @AfterEach
    void close() {
        failover.close();
        breakers.close();
        client.shutdown();
        server.close();
    }

    @Test
    void rememberedRefusalsNeitherHideAnOutageNorCloseTheBreakerAsATrialCall() {
        assertThat(failover.tryAcquire(policy, "abuser", 1).allowed()).isTrue();
        assertThat(failover.tryAcquire(policy, "abuser", 1).allowed()).isFalse();

        server.stop();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 9; i++) {
                assertThat(failover.tryAcquire(policy, "abuser", 1).allowed()).as("still remembered").isFalse();
            }
            assertThat(failover.tryAcquire(policy, "user-" + round, 1).allowed()).as("fail-open").isTrue();
        }
        assertThat(breaker.state()).as("3 of 3 round trips failed").isEqualTo(State.OPEN);

        breakerClock.advance(Duration.ofSeconds(2));
        assertThat(failover.tryAcquire(policy, "abuser", 1).allowed()).isFalse();
        assertThat(breaker.state()).as("a remembered refusal is no trial call").isNotEqualTo(State.CLOSED);
        assertThat(failover.tryAcquire(policy, "user-9", 1).allowed()).isTrue();
        assertThat(breaker.state()).as("the real trial call found Redis still down").isEqualTo(State.OPEN);
    }
}
