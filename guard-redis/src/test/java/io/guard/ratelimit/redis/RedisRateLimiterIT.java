package io.guard.ratelimit.redis;

import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.RateLimiterContract;
import io.guard.ratelimit.RedissonClients;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The rate-limiter contract on a real Redis server. */
@RedisTest
class RedisRateLimiterIT extends RateLimiterContract {

    private static RedissonClient redisson;
    private final RedisEndpoint redis;

    RedisRateLimiterIT(RedisEndpoint redis) {
        this.redis = redis;
    }

    @BeforeAll
    static void connect(RedisEndpoint shared) {
        redisson = RedissonClients.create(shared.url());
    }

    @AfterAll
    static void disconnect() {
        redisson.shutdown();
    }

    @Override
    protected RateLimiter create(Clock clock) {
        return new RedisRateLimiter(redisson, clock, redis.keyPrefix(), UUID.randomUUID().toString());
    }

    @Override
    protected void assertNothingStored() {
        assertThat(redis.keys()).isEmpty();
    }
}
