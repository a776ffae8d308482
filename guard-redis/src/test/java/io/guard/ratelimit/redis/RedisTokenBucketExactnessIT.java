package io.guard.ratelimit.redis;

import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.RedissonClients;
import io.guard.ratelimit.TokenBucketExactnessContract;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.redisson.api.RedissonClient;

import java.time.Clock;

/** The exact token bucket on a real Redis: the script's own arithmetic, every call a round trip. */
@RedisTest
class RedisTokenBucketExactnessIT extends TokenBucketExactnessContract {

    private static RedissonClient redisson;
    private final RedisEndpoint redis;

    RedisTokenBucketExactnessIT(RedisEndpoint redis) {
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
        return new RedisRateLimiter(redisson, clock, redis.keyPrefix(), "exact", 0);
    }

    @Override
    protected int cases() {
        return 60;
    }

    @Override
    protected int steps() {
        return 30;
    }
}
