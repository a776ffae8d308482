package io.guard.ratelimit.redis;

import io.guard.test.redis.RedisCluster;
import io.guard.test.redis.RedisSentinels;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;

/**
 * Guard's Redis backend on a Sentinel or Cluster deployment through one client, set up as docs/operations.md
 * recommends: Redisson's {@code sentinelServersConfig}/{@code clusterServersConfig}, or Spring Data Redis's
 * {@link LettuceConnectionFactory} with a {@link RedisSentinelConfiguration}/{@link RedisClusterConfiguration} (and,
 * for a cluster, Lettuce's adaptive and periodic topology refresh). {@code client} is {@code redisson} or
 * {@code lettuce}; {@code timeout} is the client's command timeout.
 */
final class FailoverClient implements AutoCloseable {

    /** Lettuce re-reads the cluster's slots at least this often (and at once on MOVED or a lost connection). */
    static final Duration TOPOLOGY_REFRESH = Duration.ofSeconds(2);

    private final RedissonClient redisson;
    private final LettuceConnectionFactory factory;

    private FailoverClient(RedissonClient redisson, LettuceConnectionFactory factory) {
        this.redisson = redisson;
        this.factory = factory;
        if (factory != null) {
            factory.afterPropertiesSet();
        }
    }

    static FailoverClient sentinel(String client, RedisSentinels sentinels, Duration timeout) {
        if (client.equals("redisson")) {
            Config config = base();
            var servers = config.useSentinelServers().setMasterName(RedisSentinels.MASTER_NAME)
                    .setReadMode(ReadMode.MASTER).setTimeout((int) timeout.toMillis())
                    .setMasterConnectionMinimumIdleSize(1).setMasterConnectionPoolSize(8)
                    .setSlaveConnectionMinimumIdleSize(0).setSlaveConnectionPoolSize(1)
                    .setSubscriptionConnectionMinimumIdleSize(0).setSubscriptionConnectionPoolSize(1);
            sentinels.sentinelAddresses().forEach(address -> servers.addSentinelAddress("redis://" + address));
            return new FailoverClient(Redisson.create(config), null);
        }
        RedisSentinelConfiguration configuration = new RedisSentinelConfiguration();
        configuration.master(RedisSentinels.MASTER_NAME);
        sentinels.sentinelAddresses().forEach(address -> configuration.sentinel(address.substring(0,
                address.indexOf(':')), Integer.parseInt(address.substring(address.indexOf(':') + 1))));
        LettuceClientConfiguration clientConfiguration = LettuceClientConfiguration.builder().commandTimeout(timeout)
                .clientOptions(ClientOptions.builder().build()).build();
        return new FailoverClient(null, new LettuceConnectionFactory(configuration, clientConfiguration));
    }

    static FailoverClient cluster(String client, RedisCluster cluster, Duration timeout) {
        if (client.equals("redisson")) {
            Config config = base();
            var servers = config.useClusterServers().setReadMode(ReadMode.MASTER).setTimeout((int) timeout.toMillis())
                    .setScanInterval(1_000)
                    .setMasterConnectionMinimumIdleSize(1).setMasterConnectionPoolSize(4)
                    .setSlaveConnectionMinimumIdleSize(0).setSlaveConnectionPoolSize(1)
                    .setSubscriptionConnectionMinimumIdleSize(0).setSubscriptionConnectionPoolSize(1);
            cluster.urls().forEach(servers::addNodeAddress);
            return new FailoverClient(Redisson.create(config), null);
        }
        RedisClusterConfiguration configuration = new RedisClusterConfiguration(cluster.urls().stream()
                .map(url -> url.substring(url.indexOf("://") + 3)).toList());
        ClusterTopologyRefreshOptions refresh = ClusterTopologyRefreshOptions.builder()
                .enablePeriodicRefresh(TOPOLOGY_REFRESH).enableAllAdaptiveRefreshTriggers().build();
        LettuceClientConfiguration clientConfiguration = LettuceClientConfiguration.builder().commandTimeout(timeout)
                .clientOptions(ClusterClientOptions.builder().topologyRefreshOptions(refresh).build()).build();
        return new FailoverClient(null, new LettuceConnectionFactory(configuration, clientConfiguration));
    }

    private static Config base() {
        Config config = new Config();
        config.setThreads(2);
        config.setNettyThreads(8);
        return config;
    }

    /** A new script connection through this client. */
    ScriptConnection connection() {
        return redisson != null ? RedissonScriptConnection.of(redisson) : LettuceScriptConnection.of(factory);
    }

    @Override
    public void close() {
        if (redisson != null) {
            redisson.shutdown();
        }
        if (factory != null) {
            factory.destroy();
        }
    }
}
