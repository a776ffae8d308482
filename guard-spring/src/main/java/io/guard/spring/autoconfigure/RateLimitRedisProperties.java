package io.guard.spring.autoconfigure;

import java.time.Duration;

/**
 * {@code guard.rate-limit.redis.*}: which Redis client runs Guard's scripts, how many go together, how long a
 * decision may wait for Redis, how long start-up waits for the connection to be warm, and which database holds
 * Guard's keys.
 */
public class RateLimitRedisProperties {

    /**
     * Which client runs Guard's scripts: auto (a RedissonClient bean if there is one, else Spring Data Redis's
     * RedisConnectionFactory), redisson or spring-data.
     */
    private Client client = Client.AUTO;

    /** The most decisions sent to Redis together in one pipelined batch; 1 sends each alone. */
    private int maxBatch = 64;

    /**
     * The longest a decision (alone or in a pipelined batch) waits for a silent Redis, whatever the client's own
     * timeouts and retries; a decision not answered by then follows the limit's on-backend-failure, and counts as a
     * failure for the guard-rate-limit-backend breaker, whose trial calls have the same bound. While Redis answers
     * other calls, before its first reply, or while this JVM is stalled, a decision waits up to 4 x this instead.
     */
    private Duration timeout = Duration.ofMillis(250);

    /**
     * How long start-up waits for Guard's Redis warm-up (connections made, scripts loaded, the decision path run once)
     * before the application starts serving; past it the application starts anyway with a WARN, limits follow their
     * on-backend-failure until Redis answers, and the warm-up goes on in the background. 0 does not wait.
     */
    private Duration warmUpTimeout = Duration.ofSeconds(5);

    /**
     * The Redis database (SELECT index) that holds Guard's keys, apart from the application's own, so that the
     * application's KEYS, SCAN or FLUSHDB never meets them; unset uses the database the application's client selects.
     * Only 0 on Redis Cluster; not with the application's own RedissonClient, whose database Guard cannot change.
     */
    private Integer database;

    public Integer getDatabase() {
        return database;
    }

    public void setDatabase(Integer database) {
        this.database = database;
    }

    public Duration getWarmUpTimeout() {
        return warmUpTimeout;
    }

    public void setWarmUpTimeout(Duration warmUpTimeout) {
        this.warmUpTimeout = warmUpTimeout;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    /** The Redis client Guard's scripts go through. */
    public enum Client {
        /** A RedissonClient bean if there is one, else Spring Data Redis's RedisConnectionFactory. */
        AUTO,
        /** The RedissonClient bean; start-up fails without one. */
        REDISSON,
        /** Spring Data Redis's RedisConnectionFactory bean, which must be Lettuce's; start-up fails without one. */
        SPRING_DATA
    }

    public Client getClient() {
        return client;
    }

    public void setClient(Client client) {
        this.client = client;
    }

    public int getMaxBatch() {
        return maxBatch;
    }

    public void setMaxBatch(int maxBatch) {
        this.maxBatch = maxBatch;
    }
}
