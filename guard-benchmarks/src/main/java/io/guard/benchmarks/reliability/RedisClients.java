package io.guard.benchmarks.reliability;

import io.guard.ratelimit.redis.LettuceScriptConnection;
import io.guard.ratelimit.redis.RedissonScriptConnection;
import io.guard.ratelimit.redis.ScriptConnection;
import io.lettuce.core.RedisClient;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A Redis client at its default settings, as an application gets it, and Guard's script connection on it: Redisson
 * lazy (as Guard makes its own), or Lettuce with Spring Data's 60 s command timeout. Closing shuts the client down.
 */
final class RedisClients implements AutoCloseable {

    private final RedissonClient redisson;
    private final RedisClient lettuce;
    private final ScriptConnection connection;

    private RedisClients(RedissonClient redisson, RedisClient lettuce, ScriptConnection connection) {
        this.redisson = redisson;
        this.lettuce = lettuce;
        this.connection = connection;
    }

    /** {@code client} is {@code redisson} or {@code lettuce}. */
    static RedisClients open(String client, String url) {
        if (client.equals("redisson")) {
            Config config = new Config();
            config.setLazyInitialization(true);
            config.useSingleServer().setAddress(url);
            RedissonClient redisson = Redisson.create(config);
            return new RedisClients(redisson, null, RedissonScriptConnection.of(redisson));
        }
        RedisClient lettuce = RedisClient.create(url);
        return new RedisClients(null, lettuce, LettuceScriptConnection.of(lettuce, Duration.ofSeconds(60)));
    }

    ScriptConnection connection() {
        return connection;
    }

    @Override
    public void close() {
        if (redisson != null) {
            redisson.shutdown(0, 1, TimeUnit.SECONDS);
        }
        if (lettuce != null) {
            lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }
}
