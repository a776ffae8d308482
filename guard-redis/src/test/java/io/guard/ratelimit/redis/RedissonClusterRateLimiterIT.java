package io.guard.ratelimit.redis;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.util.List;

/** The rate-limiter contract on a 3-master Redis Cluster through Redisson. */
class RedissonClusterRateLimiterIT extends ClusterContract {

    private RedissonClient redisson;

    @Override
    protected void connect(List<String> urls) {
        Config config = new Config();
        config.setThreads(2);
        config.setNettyThreads(6);
        var servers = config.useClusterServers().setTimeout(5_000).setConnectTimeout(5_000)
                .setMasterConnectionMinimumIdleSize(1).setMasterConnectionPoolSize(4)
                .setSlaveConnectionMinimumIdleSize(0).setSlaveConnectionPoolSize(1)
                .setSubscriptionConnectionMinimumIdleSize(0).setSubscriptionConnectionPoolSize(1);
        urls.forEach(servers::addNodeAddress);
        redisson = Redisson.create(config);
    }

    @Override
    protected ScriptConnection scriptConnection() {
        return RedissonScriptConnection.of(redisson);
    }

    @Override
    protected void disconnect() {
        if (redisson != null) {
            redisson.shutdown();
        }
    }
}
