package io.guard.ratelimit.redis;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.util.List;

/** The rate-limiter contract on a 3-master Redis Cluster through Spring Data Redis's Lettuce connection factory. */
class LettuceClusterRateLimiterIT extends ClusterContract {

    private LettuceConnectionFactory factory;

    @Override
    protected void connect(List<String> urls) {
        List<String> nodes = urls.stream().map(url -> url.substring(url.indexOf("://") + 3)).toList();
        factory = new LettuceConnectionFactory(new RedisClusterConfiguration(nodes));
        factory.afterPropertiesSet();
    }

    @Override
    protected ScriptConnection scriptConnection() {
        return LettuceScriptConnection.of(factory);
    }

    @Override
    protected void disconnect() {
        if (factory != null) {
            factory.destroy();
        }
    }
}
