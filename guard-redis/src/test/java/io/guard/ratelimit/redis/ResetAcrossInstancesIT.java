package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.MutableClock;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RedissonClients;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.api.RedissonClient;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances (two clients, as two processes would have) on one Redis: a reset on one clears the limit's keys and
 * the refusals the other remembers. The other's clock stands still, so only the reset message can clear its memory.
 */
@RedisTest
class ResetAcrossInstancesIT {

    private final RedisEndpoint redis;
    private final RedissonClient clientA;
    private final RedissonClient clientB;
    private final MutableClock frozen = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final RedisRateLimiter a;
    private final RedisRateLimiter b;

    ResetAcrossInstancesIT(RedisEndpoint redis) {
        this.redis = redis;
        this.clientA = RedissonClients.create(redis.url());
        this.clientB = RedissonClients.create(redis.url());
        this.a = new RedisRateLimiter(clientA, frozen, redis.keyPrefix(), "a");
        this.b = new RedisRateLimiter(clientB, frozen, redis.keyPrefix(), "b");
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        clientA.shutdown();
        clientB.shutdown();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aResetOnOneInstanceGivesTheQuotaBackOnEvery(Algorithm algorithm) throws Exception {
        b.listening().toCompletableFuture().get(10, TimeUnit.SECONDS);
        RateLimitPolicy hourly = new RateLimitPolicy("hourly-" + algorithm, algorithm, 1, Duration.ofHours(1), 0,
                Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_CLOSED);
        assertThat(a.tryAcquire(hourly, "user-1", 1).allowed()).isTrue();
        assertThat(a.tryAcquire(hourly, "user-1", 1).allowed()).isFalse();
        assertThat(b.tryAcquire(hourly, "user-1", 1).allowed()).isFalse();
        assertThat(b.tryAcquire(hourly, "other", 1).allowed()).isTrue();
        assertThat(b.tryAcquire(hourly, "other", 1).allowed()).isFalse();
        assertThat(b.rememberedRefusals()).isEqualTo(2);

        assertThat(a.reset(hourly, "user-1").toCompletableFuture().get(5, TimeUnit.SECONDS)).isPositive();

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
}
