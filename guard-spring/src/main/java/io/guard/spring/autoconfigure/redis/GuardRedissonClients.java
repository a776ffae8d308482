package io.guard.spring.autoconfigure.redis;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.BaseConfig;
import org.redisson.config.Config;
import org.springframework.boot.context.properties.bind.Binder;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * The {@code RedissonClient} Guard makes for itself when the application depends on the plain
 * {@code org.redisson:redisson} jar rather than {@code redisson-spring-boot-starter}: configured from the
 * {@code spring.data.redis.*} properties the application already has, and lazy, so the application starts (and
 * Guard decides by each limit's failure policy) while Redis is down. Without the starter, Spring Data Redis stays
 * out of the application: no {@code redis} health indicator, no repository scanning next to JPA.
 */
final class GuardRedissonClients {

    private static final String PREFIX = "spring.data.redis";

    private GuardRedissonClients() {
    }

    static RedissonClient create(Binder binder, Integer guardDatabase) {
        return Redisson.create(config(binder, guardDatabase));
    }

    /**
     * @param guardDatabase {@code guard.rate-limit.redis.database}: the database instead of
     *                      {@code spring.data.redis.database}; null for that one
     */
    static Config config(Binder binder, Integer guardDatabase) {
        Config config = new Config();
        config.setLazyInitialization(true);
        boolean ssl = binder.bind(PREFIX + ".ssl.enabled", Boolean.class).orElse(false);
        String scheme = ssl ? "rediss://" : "redis://";
        String username = binder.bind(PREFIX + ".username", String.class).orElse(null);
        String password = binder.bind(PREFIX + ".password", String.class).orElse(null);
        int database = binder.bind(PREFIX + ".database", Integer.class).orElse(0);
        String clientName = binder.bind(PREFIX + ".client-name", String.class).orElse(null);
        Integer connectTimeout = binder.bind(PREFIX + ".connect-timeout", Duration.class)
                .map(d -> (int) d.toMillis()).orElse(null);

        List<String> clusterNodes = binder.bind(PREFIX + ".cluster.nodes", String[].class)
                .map(List::of).orElse(List.of());
        List<String> sentinelNodes = binder.bind(PREFIX + ".sentinel.nodes", String[].class)
                .map(List::of).orElse(List.of());
        if (!clusterNodes.isEmpty()) {
            RedisDatabases.checkNotCluster(guardDatabase);
            var cluster = config.useClusterServers();
            clusterNodes.forEach(node -> cluster.addNodeAddress(scheme + node));
            identify(cluster, username, password, clientName);
            if (connectTimeout != null) {
                cluster.setConnectTimeout(connectTimeout);
            }
            return config;
        }
        if (!sentinelNodes.isEmpty()) {
            var sentinel = config.useSentinelServers()
                    .setMasterName(binder.bind(PREFIX + ".sentinel.master", String.class).orElse("mymaster"))
                    .setDatabase(guardDatabase != null ? guardDatabase : database);
            sentinelNodes.forEach(node -> sentinel.addSentinelAddress(scheme + node));
            identify(sentinel, username, password, clientName);
            binder.bind(PREFIX + ".sentinel.password", String.class).ifBound(sentinel::setSentinelPassword);
            if (connectTimeout != null) {
                sentinel.setConnectTimeout(connectTimeout);
            }
            return config;
        }
        var single = config.useSingleServer();
        String url = binder.bind(PREFIX + ".url", String.class).orElse(null);
        if (url != null) {
            URI uri = URI.create(url);
            single.setAddress(uri.getScheme() + "://" + uri.getHost() + ":" + (uri.getPort() > 0 ? uri.getPort() : 6379));
            if (uri.getUserInfo() != null) {
                String[] userInfo = uri.getUserInfo().split(":", 2);
                if (userInfo.length == 2) {
                    username = userInfo[0].isEmpty() ? username : userInfo[0];
                    password = userInfo[1];
                } else {
                    password = userInfo[0];
                }
            }
            String path = uri.getPath();
            if (path != null && path.length() > 1) {
                database = Integer.parseInt(path.substring(1));
            }
        } else {
            String host = binder.bind(PREFIX + ".host", String.class).orElse("localhost");
            int port = binder.bind(PREFIX + ".port", Integer.class).orElse(6379);
            single.setAddress(scheme + host + ":" + port);
        }
        single.setDatabase(guardDatabase != null ? guardDatabase : database);
        identify(single, username, password, clientName);
        if (connectTimeout != null) {
            single.setConnectTimeout(connectTimeout);
        }
        return config;
    }

    /**
     * Credentials on the server config, the one place both Redisson lines accept them (4.x prefers {@code Config}'s
     * and logs a deprecation warning per call, so only what is set is passed).
     */
    @SuppressWarnings("deprecation")
    private static void identify(BaseConfig<?> server, String username, String password, String clientName) {
        if (username != null) {
            server.setUsername(username);
        }
        if (password != null) {
            server.setPassword(password);
        }
        if (clientName != null) {
            server.setClientName(clientName);
        }
    }
}
