package io.guard.spring.autoconfigure.redis;

import io.guard.spring.autoconfigure.report.GuardPropertiesException;

/**
 * {@code guard.rate-limit.redis.database} against a Redis Cluster, which has only database 0: refused at start-up,
 * for either client, rather than failing every decision later.
 */
final class RedisDatabases {

    static final String PROPERTY = "guard.rate-limit.redis.database";

    private RedisDatabases() {
    }

    static void checkNotCluster(Integer database) {
        if (database != null && database != 0) {
            throw new GuardPropertiesException(PROPERTY, "is " + database
                    + " but the Redis client is configured for Redis Cluster, which has only database 0",
                    "Leave guard.rate-limit.redis.database out (or set it to 0) on Redis Cluster, and keep Guard's "
                            + "keys apart with guard.rate-limit.key-prefix instead.");
        }
    }
}
