package io.guard.ratelimit.redis;

import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.RateLimiterContract;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Clock;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The rate-limiter contract on a real Redis server, through Spring Data Redis's Lettuce connection factory. */
@RedisTest
class LettuceRateLimiterIT extends RateLimiterContract {

    private static LettuceConnectionFactory factory;
    private final RedisEndpoint redis;

    LettuceRateLimiterIT(RedisEndpoint redis) {
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
        return new RedisRateLimiter(LettuceScriptConnection.of(factory), clock, redis.keyPrefix(),
                UUID.randomUUID().toString(), RedisRateLimiter.DEFAULT_REFUSAL_CACHE_SIZE, Pipeline.DEFAULT_MAX_BATCH);
    }

    @Override
    protected void assertNothingStored() {
        assertThat(redis.keys()).isEmpty();
    }
}
