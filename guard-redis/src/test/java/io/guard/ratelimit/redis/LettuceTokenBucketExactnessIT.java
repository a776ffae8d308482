package io.guard.ratelimit.redis;

import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.TokenBucketExactnessContract;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Clock;

/** The exact token bucket on a real Redis through Spring Data Redis's Lettuce: same script, other client. */
@RedisTest
class LettuceTokenBucketExactnessIT extends TokenBucketExactnessContract {

    private static LettuceConnectionFactory factory;
    private final RedisEndpoint redis;

    LettuceTokenBucketExactnessIT(RedisEndpoint redis) {
        this.redis = redis;
    }

    @BeforeAll
    static void connect(RedisEndpoint shared) {
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(shared.host(), shared.port()));
        factory.afterPropertiesSet();
    }

    @AfterAll
    static void disconnect() {
        factory.destroy();
    }

    @Override
    protected RateLimiter create(Clock clock) {
        return new RedisRateLimiter(LettuceScriptConnection.of(factory), clock, redis.keyPrefix(), "exact", 0, 1);
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
