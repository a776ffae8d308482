package io.guard.spring.autoconfigure.redis;

import io.guard.spring.autoconfigure.RateLimitProperties.Backend;
import io.guard.spring.autoconfigure.RateLimitRedisProperties.Client;

/**
 * Where Guard counts rate limits, decided once from what the application has: {@code guard.rate-limit.backend},
 * {@code guard.rate-limit.redis.client} and which Redis client beans exist (as Spring Boot's cache auto-configuration
 * picks one cache type). Plain code, so the whole decision is unit-tested without a context; the nested
 * configurations of {@link GuardRateLimiterBackendConfiguration} only ask which choice was made.
 *
 * <p>Internal: public for the start-up report, which asks the same decision; not an API.
 *
 * @param client which Redis client runs Guard's scripts, or {@link RedisClient#NONE} for in process
 * @param reason why, for the conditions report
 */
public record BackendChoice(RedisClient client, String reason) {

    /** The client Guard's scripts run on. */
    public enum RedisClient {
        /** The application's {@code RedissonClient} bean. */
        REDISSON,
        /** Spring Data Redis's {@code RedisConnectionFactory} bean, on Lettuce. */
        SPRING_DATA_LETTUCE,
        /** None: limits are counted in process. */
        NONE
    }

    /**
     * @param backend   {@code guard.rate-limit.backend}
     * @param client    {@code guard.rate-limit.redis.client}
     * @param redisson  whether Redisson is on the class path and a {@code RedissonClient} bean exists
     * @param lettuce   whether Spring Data Redis and Lettuce are on the class path and a
     *                  {@code RedisConnectionFactory} bean exists
     */
    static BackendChoice decide(Backend backend, Client client, boolean redisson, boolean lettuce) {
        if (backend == Backend.LOCAL) {
            return new BackendChoice(RedisClient.NONE, "guard.rate-limit.backend is local");
        }
        if (redisson && client != Client.SPRING_DATA) {
            return new BackendChoice(RedisClient.REDISSON, "a RedissonClient bean and guard.rate-limit.redis.client "
                    + name(client));
        }
        if (lettuce && client != Client.REDISSON) {
            return new BackendChoice(RedisClient.SPRING_DATA_LETTUCE, "a RedisConnectionFactory bean and "
                    + "guard.rate-limit.redis.client " + name(client));
        }
        return new BackendChoice(RedisClient.NONE, "no Redis client bean that guard.rate-limit.redis.client "
                + name(client) + " allows");
    }

    public boolean redis() {
        return client != RedisClient.NONE;
    }

    private static String name(Client client) {
        return client.name().toLowerCase().replace('_', '-');
    }
}
