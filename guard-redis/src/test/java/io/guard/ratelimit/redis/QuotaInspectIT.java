package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.MutableClock;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.ratelimit.RedissonClients;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Inspecting a quota on a real Redis writes nothing: the same keys, the same contents, expiries that only ran down,
 * even where a decision would have cleaned up (expired records) or repaired (a key of another type). And the bound
 * on a reset that an instance did not hear of: a remembered refusal outlives the quota by at most one second.
 */
@RedisTest
class QuotaInspectIT {

    private static RedissonClient redisson;
    private final RedisEndpoint redis;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<AutoCloseable> opened = new ArrayList<>();

    QuotaInspectIT(RedisEndpoint redis) {
        this.redis = redis;
    }

    @BeforeAll
    static void connect(RedisEndpoint shared) {
        redisson = RedissonClients.create(shared.url());
    }

    @AfterAll
    static void disconnect() {
        redisson.shutdown();
    }

    @AfterEach
    void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    private RedisRateLimiter instance(String id, Clock time) {
        RedisRateLimiter limiter = new RedisRateLimiter(redisson, time, redis.keyPrefix(), id);
        opened.add(limiter);
        return limiter;
    }

    private static RateLimitPolicy policy(String name, Algorithm algorithm, long rate, Duration interval,
                                          TimeSource time) {
        return new RateLimitPolicy(name, algorithm, rate, interval, 0, Scope.GLOBAL, time,
                BackendFailurePolicy.FAIL_CLOSED);
    }

    /** Every key under the test's prefix with its type and contents. */
    private Map<String, List<Object>> contents() {
        Map<String, List<Object>> contents = new LinkedHashMap<>();
        for (String key : redis.keys()) {
            String type = String.valueOf(redis.call("TYPE", key));
            Object value = switch (type) {
                case "hash" -> redis.call("HGETALL", key);
                case "zset" -> redis.call("ZRANGE", key, "0", "-1", "WITHSCORES");
                case "set" -> redis.call("SMEMBERS", key);
                default -> redis.call("GET", key);
            };
            contents.put(key, List.of(type, String.valueOf(value)));
        }
        return contents;
    }

    private Map<String, Long> expiries() {
        Map<String, Long> expiries = new LinkedHashMap<>();
        for (String key : redis.keys()) {
            expiries.put(key, (Long) redis.call("PTTL", key));
        }
        return expiries;
    }

    private static Quota inspect(RedisRateLimiter limiter, RateLimitPolicy policy, String key) {
        return limiter.inspect(policy, key).toCompletableFuture().join();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void inspectingLeavesEveryKeyItsContentsAndItsExpiry(Algorithm algorithm) {
        RedisRateLimiter limiter = instance("a", Clock.systemUTC());
        RateLimitPolicy policy = policy("peek-" + algorithm, algorithm, 5, Duration.ofHours(1), TimeSource.SERVER);
        limiter.tryAcquire(policy, "user-1", 2);
        Map<String, List<Object>> contents = contents();
        Map<String, Long> expiries = expiries();
        assertThat(contents).isNotEmpty();

        Quota first = inspect(limiter, policy, "user-1");
        Quota second = inspect(limiter, policy, "user-1");
        assertThat(inspect(limiter, policy, "user-2").remaining()).isEqualTo(5);

        assertThat(first.remaining()).isEqualTo(3);
        assertThat(second.remaining()).isEqualTo(3);
        assertThat(contents()).isEqualTo(contents);
        Map<String, Long> after = expiries();
        assertThat(after.keySet()).isEqualTo(expiries.keySet());
        after.forEach((key, ttl) -> assertThat(ttl).as("%s's expiry only ran down", key)
                .isPositive().isLessThanOrEqualTo(expiries.get(key)));
        assertThat(limiter.tryAcquire(policy, "user-1", 1).remaining()).isEqualTo(2);
    }

    @Test
    void inspectingASlidingLogLeavesItsExpiredRecordsForTheNextDecision() {
        RedisRateLimiter limiter = instance("a", clock);
        RateLimitPolicy policy = policy("kept", Algorithm.SLIDING_LOG, 5, Duration.ofSeconds(1), TimeSource.CLIENT);
        limiter.tryAcquire(policy, "k", 1);
        clock.advance(Duration.ofMillis(500));
        limiter.tryAcquire(policy, "k", 4);
        clock.advance(Duration.ofMillis(600));
        Map<String, List<Object>> contents = contents();

        assertThat(inspect(limiter, policy, "k").remaining()).isEqualTo(1);

        assertThat(contents()).isEqualTo(contents);
        String log = redis.keys().stream().filter(key -> key.endsWith(":log")).findFirst().orElseThrow();
        assertThat(redis.call("ZCARD", log)).as("the expired record is still there").isEqualTo(2L);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void inspectingAKeyOfAnotherTypeReadsItAsEmptyAndLeavesIt(Algorithm algorithm) {
        RedisRateLimiter limiter = instance("a", Clock.systemUTC());
        RateLimitPolicy policy = policy("broken-" + algorithm, algorithm, 5, Duration.ofHours(1), TimeSource.SERVER);
        for (String key : limiter.keys(policy, "k")) {
            redis.call("SADD", key, "not a limit");
        }
        Map<String, List<Object>> contents = contents();

        assertThat(inspect(limiter, policy, "k")).isEqualTo(new Quota(5, 5, Duration.ZERO, Duration.ZERO));

        assertThat(contents()).isEqualTo(contents);
    }

    @Test
    void aRefusalRememberedByAnInstanceThatMissedTheResetLastsAtMostOneSecond() {
        RedisRateLimiter b = instance("b", clock);
        RateLimitPolicy hourly = policy("hourly", Algorithm.FIXED_WINDOW, 1, Duration.ofHours(1), TimeSource.CLIENT);
        assertThat(b.tryAcquire(hourly, "user-1", 1).allowed()).isTrue();
        assertThat(b.tryAcquire(hourly, "user-1", 1).allowed()).isFalse();

        // The keys go without the reset message (lost, or b's subscription was down): only b's memory still refuses.
        for (String key : b.keys(hourly, "user-1")) {
            redis.call("DEL", key);
        }

        clock.advance(Duration.ofMillis(999));
        assertThat(b.tryAcquire(hourly, "user-1", 1).allowed()).as("remembered").isFalse();
        assertThat(redis.keys()).as("answered without Redis").isEmpty();
        clock.advance(Duration.ofMillis(1));
        assertThat(b.tryAcquire(hourly, "user-1", 1).allowed()).as("1 s after the refusal, Redis decides").isTrue();
    }

    @Test
    void inspectingOrResettingWhileRedisIsDownFailsNamingTheLimit() throws Exception {
        try (DedicatedRedis server = RedisServers.startDedicated()) {
            RedissonClient own = RedissonClients.create(server.url(), 500);
            opened.add(own::shutdown);
            RedisRateLimiter limiter = new RedisRateLimiter(own, Clock.systemUTC(), "guard:", "a");
            opened.add(limiter);
            RateLimitPolicy policy = policy("down", Algorithm.TOKEN_BUCKET, 5, Duration.ofSeconds(1),
                    TimeSource.SERVER);
            server.stop();

            assertThatThrownBy(() -> limiter.inspect(policy, "user-1").toCompletableFuture().get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(RateLimiterBackendException.class)
                    .hasMessageContaining("rate limiter 'down': Redis could not inspect the quota")
                    .hasMessageNotContaining("user-1");
            assertThatThrownBy(() -> limiter.reset(policy, "user-1").toCompletableFuture().get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(RateLimiterBackendException.class)
                    .hasMessageContaining("rate limiter 'down': Redis could not reset")
                    .hasMessageNotContaining("user-1");
        }
    }
}
