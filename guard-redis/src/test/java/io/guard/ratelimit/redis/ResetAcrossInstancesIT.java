package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.MutableClock;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RedissonClients;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;
import io.guard.test.redis.RedisTest;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.api.RedissonClient;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances (two clients, as two processes would have) on one Redis: a reset on one clears the limit's keys and
 * the refusals the other remembers. The other's clock stands still, so only the reset message can clear its memory.
 * On each client: Redisson, and Lettuce (Spring Data Redis's).
 */
@RedisTest
class ResetAcrossInstancesIT {

    private final RedisEndpoint redis;
    private final MutableClock frozen = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<AutoCloseable> opened = new ArrayList<>();

    ResetAcrossInstancesIT(RedisEndpoint redis) {
        this.redis = redis;
    }

    static Stream<Arguments> clientsAndAlgorithms() {
        List<Arguments> cases = new ArrayList<>();
        for (String client : List.of("redisson", "lettuce")) {
            for (Algorithm algorithm : Algorithm.values()) {
                cases.add(Arguments.of(client, algorithm));
            }
        }
        return cases.stream();
    }

    /** An instance with a client of its own, as another process would have. */
    private RedisRateLimiter instance(String client, String id) {
        return instance(client, id, redis.url());
    }

    private RedisRateLimiter instance(String client, String id, String url) {
        ScriptConnection connection;
        if (client.equals("redisson")) {
            RedissonClient redisson = RedissonClients.create(url);
            opened.add(redisson::shutdown);
            connection = RedissonScriptConnection.of(redisson);
        } else {
            RedisClient lettuce = RedisClient.create(url);
            opened.add(lettuce::shutdown);
            connection = LettuceScriptConnection.of(lettuce, Duration.ofSeconds(5));
        }
        RedisRateLimiter limiter = new RedisRateLimiter(connection, frozen, redis.keyPrefix(), id,
                RedisRateLimiter.DEFAULT_REFUSAL_CACHE_SIZE, Pipeline.DEFAULT_MAX_BATCH);
        opened.add(limiter);
        return limiter;
    }

    @AfterEach
    void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("clientsAndAlgorithms")
    void aResetOnOneInstanceGivesTheQuotaBackOnEvery(String client, Algorithm algorithm) throws Exception {
        RedisRateLimiter a = instance(client, "a");
        RedisRateLimiter b = instance(client, "b");
        b.listening().toCompletableFuture().get(10, TimeUnit.SECONDS);
        RateLimitPolicy hourly = new RateLimitPolicy("hourly-" + algorithm, algorithm, 1, Duration.ofHours(1), 0,
                Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_CLOSED);
        assertThat(a.tryAcquire(hourly, "user-1", 1).allowed()).isTrue();
        assertThat(a.tryAcquire(hourly, "user-1", 1).allowed()).isFalse();
        assertThat(b.tryAcquire(hourly, "user-1", 1).allowed()).isFalse();
        assertThat(b.tryAcquire(hourly, "other", 1).allowed()).isTrue();
        assertThat(b.tryAcquire(hourly, "other", 1).allowed()).isFalse();
        assertThat(b.rememberedRefusals()).isEqualTo(2);

        assertThat(redis.keys()).anyMatch(key -> key.contains("{hourly-" + algorithm + ":user-1}"));
        a.reset(hourly, "user-1").toCompletableFuture().get(5, TimeUnit.SECONDS);

        assertThat(redis.keys()).noneMatch(key -> key.contains("{hourly-" + algorithm + ":user-1}"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (b.rememberedRefusals() != 1 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(b.rememberedRefusals()).as("only user-1's refusal is dropped").isEqualTo(1);
        assertThat(b.tryAcquire(hourly, "user-1", 1).allowed()).isTrue();
        assertThat(a.tryAcquire(hourly, "user-1", 1).allowed()).isFalse();
        assertThat(b.tryAcquire(hourly, "other", 1).allowed()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redisson", "lettuce"})
    void aSubscriptionRemadeAfterADisconnectForgetsEveryRememberedRefusal(String client) throws Exception {
        DedicatedRedis server = RedisServers.startDedicated();
        opened.add(server);
        RedisRateLimiter b = instance(client, "b", server.url());
        b.listening().toCompletableFuture().get(10, TimeUnit.SECONDS);
        RateLimitPolicy hourly = new RateLimitPolicy("hourly", Algorithm.FIXED_WINDOW, 1, Duration.ofHours(1), 0,
                Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_CLOSED);
        assertThat(b.tryAcquire(hourly, "user-1", 1).allowed()).isTrue();
        assertThat(b.tryAcquire(hourly, "user-1", 1).allowed()).isFalse();
        assertThat(b.rememberedRefusals()).isEqualTo(1);

        // Resets published while the subscription is down are missed: the client subscribes again on its own.
        server.stop();
        server.start();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (b.rememberedRefusals() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(b.rememberedRefusals()).as("cleared on re-subscription").isZero();
    }
}
