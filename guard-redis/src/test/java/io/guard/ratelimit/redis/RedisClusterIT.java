package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisCluster;
import io.guard.test.redis.RedisEndpoint;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real 3-master Redis Cluster on loopback, built by {@code redis-cli --cluster create}: every algorithm decides
 * through it, with no CROSSSLOT error, and all keys of one limit hash to one slot, also for hostile keys. Fails,
 * never skips, on a machine without {@code redis-server} and {@code redis-cli} (see {@code RedisCluster}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClusterIT {

    private static final List<String> HOSTILE_KEYS = List.of("user-42", "{", "}", "a}{b", "{user-42}", "x:{y}:z",
            "*", "?[a]*", "line\nbreak\r\n", "é€😀", "lone\uD800surrogate", "k".repeat(10_000));

    private RedisCluster cluster;
    private RedissonClient redisson;
    private RedisRateLimiter limiter;

    @BeforeAll
    void startCluster() throws Exception {
        cluster = RedisCluster.start(3, 0, Duration.ofSeconds(5));
        Config config = new Config();
        config.setThreads(2);
        config.setNettyThreads(6);
        var servers = config.useClusterServers().setTimeout(5_000).setConnectTimeout(5_000)
                .setMasterConnectionMinimumIdleSize(1).setMasterConnectionPoolSize(4)
                .setSlaveConnectionMinimumIdleSize(0).setSlaveConnectionPoolSize(1)
                .setSubscriptionConnectionMinimumIdleSize(0).setSubscriptionConnectionPoolSize(1);
        cluster.urls().forEach(servers::addNodeAddress);
        redisson = Redisson.create(config);
        limiter = new RedisRateLimiter(redisson, Clock.systemUTC(), "guard:", "cluster-it");
    }

    @AfterAll
    void stopCluster() {
        if (limiter != null) {
            limiter.close();
        }
        if (redisson != null) {
            redisson.shutdown();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void everyAlgorithmDecidesInTheClusterWithEachLimitInOneSlot(Algorithm algorithm) {
        Set<Long> slotsUsed = new HashSet<>();
        for (String limiterName : List.of("orders", "a{b}:c")) {
            for (Scope scope : Scope.values()) {
                // An hour: FIXED_WINDOW's windows are aligned to Redis time, and a 30 s window let a run that
                // straddled its edge admit a fourth call (seen once in 30 s windows; 120x rarer now).
                RateLimitPolicy policy = new RateLimitPolicy(limiterName, algorithm, 3, Duration.ofHours(1), 0,
                        scope, TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED);
                for (String key : HOSTILE_KEYS) {
                    for (int i = 0; i < 3; i++) {
                        assertThat(limiter.tryAcquire(policy, key, 1).allowed()).as("%s %s call %d", policy.name(),
                                printable(key), i).isTrue();
                    }
                    Decision refused = limiter.tryAcquire(policy, key, 1);
                    assertThat(refused.allowed()).as("%s %s: fourth call", policy.name(), printable(key)).isFalse();

                    List<String> keys = LimitKeys.of("guard:", "cluster-it", policy, key);
                    Set<Long> slots = new HashSet<>();
                    for (String redisKey : keys) {
                        slots.add(slotOf(redisKey));
                        assertThat(existsSomewhere(redisKey)).as("%s was written", redisKey).isTrue();
                        assertThat(redisKey.length()).as("length of %s", printable(redisKey))
                                .isLessThan(300);
                    }
                    assertThat(slots).as("slots of %s", keys).hasSize(1);
                    slotsUsed.addAll(slots);
                }
            }
        }
        assertThat(slotsUsed.size()).as("limits spread over the cluster").isGreaterThan(1);
    }

    private long slotOf(String key) {
        return (Long) cluster.nodes().get(0).endpoint("guard:").call("CLUSTER", "KEYSLOT", key);
    }

    /** Asks every master for the key: only its owner has it (the others would answer MOVED, i.e. an error). */
    private boolean existsSomewhere(String key) {
        long slot = slotOf(key);
        for (int node = 0; node < cluster.nodes().size(); node++) {
            RedisEndpoint endpoint = cluster.nodes().get(node).endpoint("guard:");
            if ((Long) endpoint.call("CLUSTER", "COUNTKEYSINSLOT", Long.toString(slot)) > 0
                    && (Long) endpoint.call("EXISTS", key) == 1) {
                return true;
            }
        }
        return false;
    }

    private static String printable(String key) {
        String shown = key.length() > 40 ? key.substring(0, 40) + "...(" + key.length() + " chars)" : key;
        return shown.replace("\n", "\\n").replace("\r", "\\r");
    }
}
