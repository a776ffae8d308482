package io.guard.ratelimit.redis;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.MutableClock;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RedissonClients;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.api.RedissonClient;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each key of a limit may be lost alone (eviction, a manual DEL) or overwritten with another type: the scripts
 * rebuild from what is there, every key they write expires, a refusal never says "retry in 0", and a broken key is
 * that key's problem rather than an outage of Redis.
 */
@RedisTest
class PartialKeyLossIT {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static RedissonClient redisson;
    private final RedisEndpoint redis;
    private final MutableClock clock = new MutableClock(T0);
    private final RedisRateLimiter limiter;

    PartialKeyLossIT(RedisEndpoint redis) {
        this.redis = redis;
        this.limiter = new RedisRateLimiter(redisson, clock, redis.keyPrefix(), "loss", 0);
    }

    @BeforeAll
    static void connect(RedisEndpoint shared) {
        redisson = RedissonClients.create(shared.url());
    }

    @AfterAll
    static void disconnect() {
        redisson.shutdown();
    }

    @AfterEach
    void close() {
        limiter.close();
    }

    private static RateLimitPolicy policy(String name, Algorithm algorithm, long rate, BackendFailurePolicy onFailure) {
        return new RateLimitPolicy(name, algorithm, rate, Duration.ofSeconds(10), 0, Scope.GLOBAL, TimeSource.CLIENT,
                onFailure);
    }

    private List<String> keys(RateLimitPolicy policy, String key) {
        return LimitKeys.of(redis.keyPrefix(), "loss", policy, key);
    }

    @Test
    void aSlidingLogWhoseLogIsGoneStartsAfreshInsteadOfRefusingWithNoWait() {
        RateLimitPolicy policy = policy("log-gone", Algorithm.SLIDING_LOG, 5, BackendFailurePolicy.FAIL_CLOSED);
        assertThat(limiter.tryAcquire(policy, "k", 5).allowed()).isTrue();
        redis.call("DEL", keys(policy, "k").get(0));

        Decision decision = limiter.tryAcquire(policy, "k", 1);
        assertThat(decision.allowed()).as("the log is the truth: nothing is in use").isTrue();
        assertThat(decision.remaining()).isEqualTo(4);
    }

    @Test
    void aRefusalThatRecreatesALostStateGivesItAnExpiry() {
        RateLimitPolicy policy = policy("state-gone", Algorithm.SLIDING_LOG, 5, BackendFailurePolicy.FAIL_CLOSED);
        limiter.tryAcquire(policy, "k", 3);
        clock.advance(Duration.ofSeconds(6));
        limiter.tryAcquire(policy, "k", 2);
        clock.advance(Duration.ofSeconds(5));
        redis.call("DEL", keys(policy, "k").get(1));

        Decision refused = limiter.tryAcquire(policy, "k", 5);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(5));
        for (String key : keys(policy, "k")) {
            assertThat((Long) redis.call("PTTL", key)).as("PTTL of %s", key).isPositive();
        }
    }

    /** Random decisions, clock moves, lost keys and overwritten keys; after every step every key expires. */
    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void everyPathLeavesOnlyExpiringKeysAndNoRefusalSaysZero(Algorithm algorithm) {
        Random random = new Random(42 + algorithm.ordinal());
        RateLimitPolicy policy = policy("walk-" + algorithm, algorithm, 6, BackendFailurePolicy.FAIL_CLOSED);
        List<String> keys = keys(policy, "k");
        for (int step = 0; step < 400; step++) {
            switch (random.nextInt(10)) {
                case 0 -> redis.call("DEL", keys.get(random.nextInt(keys.size())));
                case 1 -> redis.call("SET", keys.get(random.nextInt(keys.size())), "not-a-limit");
                case 2, 3 -> clock.advance(Duration.ofMillis(random.nextInt(4_000)));
                default -> {
                    Decision decision = limiter.tryAcquire(policy, "k", 1 + random.nextInt(6));
                    if (!decision.allowed()) {
                        assertThat(decision.retryAfter()).as("step %d", step).isPositive();
                    }
                    for (String key : redis.keys()) {
                        assertThat((Long) redis.call("PTTL", key)).as("step %d, PTTL of %s", step, key)
                                .isNotEqualTo(-1L);
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aKeyOfTheWrongTypeIsRepairedAndNeverOpensTheBackendBreaker(Algorithm algorithm) {
        CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
        CircuitBreaker breaker = breakers.circuitBreaker("backend", FailoverRateLimiter.recommendedBreakerConfig());
        FailoverRateLimiter failover = new FailoverRateLimiter(
                new RedisRateLimiter(redisson, clock, redis.keyPrefix(), "loss", 0), new LocalRateLimiter(clock),
                breaker, clock);
        try {
            RateLimitPolicy policy = policy("wrong-" + algorithm, algorithm, 3, BackendFailurePolicy.FAIL_CLOSED);
            for (String key : keys(policy, "broken")) {
                redis.call("RPUSH", key, "someone else's list");
            }
            for (int i = 0; i < 6; i++) {
                for (String key : keys(policy, "broken")) {
                    redis.call("DEL", key);
                    redis.call("RPUSH", key, "again");
                }
                assertThat(failover.tryAcquire(policy, "broken", 1).allowed()).isTrue();
            }
            assertThat(breaker.state()).isEqualTo(State.CLOSED);
            assertThat(failover.tryAcquire(policy, "healthy", 3).allowed()).isTrue();
            assertThat(failover.tryAcquire(policy, "healthy", 1).allowed()).isFalse();
        } finally {
            failover.close();
            breakers.close();
        }
    }
}
