package io.guard.ratelimit.redis;

import io.guard.ratelimit.RedissonClients;
import io.guard.test.redis.RedisEndpoint;
import org.redisson.api.RedissonClient;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** A Redisson client and a Lettuce connection factory on one Redis, for tests that run on each client by name. */
final class BothClients implements AutoCloseable {

    private final RedissonClient redisson;
    private final LettuceConnectionFactory factory;

    BothClients(RedisEndpoint redis) {
        redisson = RedissonClients.create(redis.url());
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(redis.host(), redis.port()));
        factory.afterPropertiesSet();
    }

    /** A new script connection through {@code "redisson"} or {@code "lettuce"}. */
    ScriptConnection connection(String client) {
        return client.equals("redisson") ? RedissonScriptConnection.of(redisson) : LettuceScriptConnection.of(factory);
    }

    @Override
    public void close() {
        redisson.shutdown();
        factory.destroy();
    }
}
