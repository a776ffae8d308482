package io.guard.ratelimit;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** Redisson clients sized for tests: few threads and connections, so that a test starts fast on a small machine. */
public final class RedissonClients {

    private RedissonClients() {
    }

    public static RedissonClient create(String url) {
        return create(url, 3_000);
    }

    /** A client that gives up after {@code timeoutMillis} without retrying, for tests that stop Redis. */
    public static RedissonClient create(String url, int timeoutMillis) {
        Config config = new Config();
        config.setThreads(2);
        config.setNettyThreads(8);
        config.useSingleServer().setAddress(url)
                .setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(24)
                .setSubscriptionConnectionMinimumIdleSize(0)
                .setSubscriptionConnectionPoolSize(1)
                .setConnectTimeout(timeoutMillis)
                .setTimeout(timeoutMillis)
                .setRetryAttempts(0);
        return Redisson.create(config);
    }
}
