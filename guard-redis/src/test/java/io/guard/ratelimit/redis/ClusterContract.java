package io.guard.ratelimit.redis;

import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.RateLimiterContract;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rate-limiter contract on a real 3-master Redis Cluster: a subclass says how to reach it with one client.
 * Each limiter gets a key prefix of its own, so tests see only their own keys.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ClusterContract extends RateLimiterContract {

    private final AtomicInteger limiters = new AtomicInteger();
    private RedisCluster cluster;
    private String prefix;

    /** Connects a client to the cluster whose nodes listen at {@code urls}. */
    protected abstract void connect(List<String> urls);

    /** A connection through that client. */
    protected abstract ScriptConnection scriptConnection();

    protected abstract void disconnect();

    /** Each limit and key is its own hash tag, so a group's limits live in different slots: decided in order. */
    @Override
    protected boolean decidesGroupsAtomically() {
        return false;
    }

    @BeforeAll
    void startCluster() throws Exception {
        cluster = RedisCluster.start(3, 0, Duration.ofSeconds(5));
        connect(cluster.urls());
    }

    @AfterAll
    void stopCluster() {
        try {
            disconnect();
        } finally {
            cluster.close();
        }
    }

    @Override
    protected RateLimiter create(Clock clock) {
        prefix = "c" + limiters.incrementAndGet() + ":";
        return new RedisRateLimiter(scriptConnection(), clock, prefix, UUID.randomUUID().toString(),
                RedisRateLimiter.DEFAULT_REFUSAL_CACHE_SIZE, Pipeline.DEFAULT_MAX_BATCH);
    }

    @Override
    protected void assertNothingStored() {
        for (DedicatedRedis node : cluster.nodes()) {
            assertThat(node.endpoint(prefix).keys()).as("keys on port %d", node.port()).isEmpty();
        }
    }
}
