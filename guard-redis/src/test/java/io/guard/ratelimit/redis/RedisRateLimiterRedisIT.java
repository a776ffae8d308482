package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RedissonClients;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.test.redis.RedisEndpoint;
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
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What only the Redis backend has: key layout, expiry, script recovery, memory, shared time. */
@RedisTest
class RedisRateLimiterRedisIT {

    private static RedissonClient redisson;
    private final RedisEndpoint redis;
    private final RedisRateLimiter limiter;

    RedisRateLimiterRedisIT(RedisEndpoint redis) {
        this.redis = redis;
        this.limiter = new RedisRateLimiter(redisson, Clock.systemUTC(), redis.keyPrefix(), "instance-a");
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
    void close() {
        limiter.close();
    }

    private static RateLimitPolicy policy(String name, Algorithm algorithm, long rate, Duration interval,
                                          Scope scope, TimeSource time) {
        return new RateLimitPolicy(name, algorithm, rate, interval, 0, scope, time, BackendFailurePolicy.FAIL_CLOSED);
    }

    @Test
    void keysShareOneHashTagThatUserInputCannotBreak() {
        RateLimitPolicy policy = policy("order-submit", Algorithm.SLIDING_LOG, 5, Duration.ofSeconds(1),
                Scope.GLOBAL, TimeSource.SERVER);
        limiter.tryAcquire(policy, "user:1}{x", 1);

        String tag = "{order-submit:user%3A1%7D%7Bx}";
        assertThat(redis.keys()).containsExactly(redis.keyPrefix() + tag + ":log", redis.keyPrefix() + tag + ":state");
        assertThat(redis.keys()).allMatch(k -> k.chars().filter(c -> c == '{').count() == 1
                && k.chars().filter(c -> c == '}').count() == 1);
    }

    @Test
    void perInstanceLimitsAreSeparateWhileGlobalOnesAreShared() {
        RedisRateLimiter other = new RedisRateLimiter(redisson, Clock.systemUTC(), redis.keyPrefix(), "instance-b");
        try {
            for (Scope scope : Scope.values()) {
                RateLimitPolicy policy = policy("scope-" + scope, Algorithm.TOKEN_BUCKET, 1, Duration.ofSeconds(10),
                        scope, TimeSource.SERVER);
                assertThat(limiter.tryAcquire(policy, "k", 1).allowed()).isTrue();
                assertThat(other.tryAcquire(policy, "k", 1).allowed()).isEqualTo(scope == Scope.PER_INSTANCE);
            }
            assertThat(redis.keys()).contains(redis.keyPrefix() + "{scope-PER_INSTANCE:k}:tat:instance-a",
                    redis.keyPrefix() + "{scope-PER_INSTANCE:k}:tat:instance-b",
                    redis.keyPrefix() + "{scope-GLOBAL:k}:tat");
        } finally {
            other.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void everyKeyExpiresOnceItNoLongerMatters(Algorithm algorithm) throws InterruptedException {
        RateLimitPolicy policy = policy("expiry-" + algorithm, algorithm, 5, Duration.ofMillis(200), Scope.GLOBAL,
                TimeSource.SERVER);
        limiter.tryAcquire(policy, "k", 5);

        List<String> keys = redis.keys();
        assertThat(keys).isNotEmpty();
        for (String key : keys) {
            // -1 would be a key without expiry; -2 a key that expired already (a slow machine may get there). At most
            // the 200 ms interval, plus 1 ms from rounding microseconds up to whole milliseconds, plus the 1 ms margin.
            assertThat((Long) redis.call("PTTL", key)).isNotEqualTo(-1L).isBetween(-2L, 202L);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!redis.keys().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(redis.keys()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void recoversWhenRedisForgetsTheScripts(Algorithm algorithm) {
        RateLimitPolicy policy = policy("noscript-" + algorithm, algorithm, 3, Duration.ofSeconds(10), Scope.GLOBAL,
                TimeSource.SERVER);
        assertThat(limiter.tryAcquire(policy, "k", 1).remaining()).isEqualTo(2);
        redis.call("SCRIPT", "FLUSH");
        assertThat(limiter.tryAcquire(policy, "k", 1).remaining()).isEqualTo(1);
        redis.call("SCRIPT", "FLUSH");
        assertThat(limiter.tryAcquireAsync(policy, "k", 1).toCompletableFuture().join().remaining()).isZero();
    }

    @Test
    void aLostStateIsRebuiltBySummingPermitsNotCountingRecords() {
        RateLimitPolicy policy = policy("rebuild", Algorithm.SLIDING_LOG, 10, Duration.ofSeconds(10), Scope.GLOBAL,
                TimeSource.SERVER);
        limiter.tryAcquire(policy, "k", 4);
        limiter.tryAcquire(policy, "k", 1);
        redis.call("DEL", redis.keyPrefix() + "{rebuild:k}:state");

        assertThat(limiter.tryAcquire(policy, "k", 1).remaining()).as("4 + 1 + 1 in use, not 3 records").isEqualTo(4);
        assertThat(limiter.tryAcquire(policy, "k", 5).allowed()).isFalse();
        assertThat(limiter.tryAcquire(policy, "k", 4).remaining()).isZero();
        assertThat(redis.call("ZCARD", redis.keyPrefix() + "{rebuild:k}:log")).as("no member was overwritten")
                .isEqualTo(4L);
    }

    @Test
    void aKeyHammeredWhileOverItsLimitIsRefusedWithoutRoundTrips() {
        RateLimitPolicy policy = policy("hammered", Algorithm.TOKEN_BUCKET, 2, Duration.ofSeconds(10), Scope.GLOBAL,
                TimeSource.SERVER);
        RedisRateLimiter uncached = new RedisRateLimiter(redisson, Clock.systemUTC(), redis.keyPrefix(), "u", 0);
        try {
            limiter.tryAcquire(policy, "k", 2);
            Decision first = limiter.tryAcquire(policy, "k", 1);
            long before = scriptCalls();
            for (int i = 0; i < 100; i++) {
                Decision again = limiter.tryAcquire(policy, "k", 1);
                assertThat(again.allowed()).isFalse();
                assertThat(again.retryAfter()).isLessThanOrEqualTo(first.retryAfter()).isPositive();
            }
            assertThat(scriptCalls()).isEqualTo(before);
            assertThat(limiter.rememberedRefusals()).isEqualTo(1);

            for (int i = 0; i < 10; i++) {
                assertThat(uncached.tryAcquire(policy, "k", 1).allowed()).isFalse();
            }
            assertThat(scriptCalls()).as("size 0 turns the cache off").isEqualTo(before + 10);
        } finally {
            uncached.close();
        }
    }

    private long scriptCalls() {
        for (String line : redis.call("INFO", "commandstats").toString().split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:")) {
                return Long.parseLong(line.substring(line.indexOf(":calls=") + 7, line.indexOf(',')));
            }
        }
        return 0;
    }

    @Test
    void aTokenBucketKeyTakesUnder200BytesOfRedisMemory() {
        RateLimitPolicy policy = policy("order-submit", Algorithm.TOKEN_BUCKET, 100, Duration.ofMinutes(1),
                Scope.GLOBAL, TimeSource.SERVER);
        limiter.tryAcquire(policy, "user-1234567890", 1);

        String key = redis.keys().get(0);
        assertThat((Long) redis.call("MEMORY", "USAGE", key)).isLessThan(200L);
    }

    @Test
    void clientsWhoseClocksAreFiveSecondsApartShareOneLimitOnServerTime() {
        RedissonClient otherClient = RedissonClients.create(redis.url());
        Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(5));
        RedisRateLimiter skewed = new RedisRateLimiter(otherClient, ahead, redis.keyPrefix(), "instance-b");
        try {
            RateLimitPolicy server = policy("skew-server", Algorithm.SLIDING_LOG, 10, Duration.ofSeconds(3),
                    Scope.GLOBAL, TimeSource.SERVER);
            RateLimitPolicy client = policy("skew-client", Algorithm.SLIDING_LOG, 10, Duration.ofSeconds(3),
                    Scope.GLOBAL, TimeSource.CLIENT);
            assertThat(admittedAlternating(skewed, server)).isEqualTo(10);
            // The same test on the callers' clocks shows what SERVER time prevents: the skewed client sees the
            // other's permits as long expired and grants a second full quota.
            assertThat(admittedAlternating(skewed, client)).isEqualTo(20);
        } finally {
            skewed.close();
            otherClient.shutdown();
        }
    }

    private int admittedAlternating(RedisRateLimiter skewed, RateLimitPolicy policy) {
        int admitted = 0;
        for (int i = 0; i < 20; i++) {
            if (limiter.tryAcquire(policy, "shared", 1).allowed()) {
                admitted++;
            }
        }
        for (int i = 0; i < 20; i++) {
            if (skewed.tryAcquire(policy, "shared", 1).allowed()) {
                admitted++;
            }
        }
        return admitted;
    }
}
