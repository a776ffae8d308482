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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances whose clocks differ by 5 seconds share one limit. With {@link TimeSource#SERVER} (the default) they
 * share Redis's timeline and the limit holds exactly. With {@link TimeSource#CLIENT} each script runs on the
 * caller's clock, and the tests below pin down what skew then does (documented in docs/reliability.md).
 */
@RedisTest
class ClockSkewIT {

    private static final Duration SKEW = Duration.ofSeconds(5);
    private static final long RATE = 4;

    private final RedissonClient redisson;
    private final RedisRateLimiter behind;
    private final RedisRateLimiter ahead;
    /** CLIENT time read from clocks that stand still, 5 s apart: the outcomes below are exact, not timing-dependent. */
    private final RedisRateLimiter stoppedBehind;
    private final RedisRateLimiter stoppedAhead;

    ClockSkewIT(RedisEndpoint redis) {
        redisson = RedissonClients.create(redis.url());
        behind = new RedisRateLimiter(redisson, Clock.systemUTC(), redis.keyPrefix(), "behind");
        ahead = new RedisRateLimiter(redisson, Clock.offset(Clock.systemUTC(), SKEW), redis.keyPrefix(), "ahead");
        Instant now = Instant.now();
        stoppedBehind = new RedisRateLimiter(redisson, Clock.fixed(now, ZoneOffset.UTC), redis.keyPrefix(), "b");
        stoppedAhead = new RedisRateLimiter(redisson, Clock.fixed(now.plus(SKEW), ZoneOffset.UTC), redis.keyPrefix(),
                "a");
    }

    @AfterEach
    void close() {
        behind.close();
        ahead.close();
        stoppedBehind.close();
        stoppedAhead.close();
        redisson.shutdown();
    }

    private static RateLimitPolicy policy(Algorithm algorithm, TimeSource time, Duration interval) {
        return new RateLimitPolicy("skew-" + algorithm + "-" + time, algorithm, RATE, interval, 0, Scope.GLOBAL, time,
                BackendFailurePolicy.FAIL_CLOSED);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void serverTimeIsOneTimelineWhateverTheClientsClocksSay(Algorithm algorithm) {
        RateLimitPolicy policy = policy(algorithm, TimeSource.SERVER, Duration.ofSeconds(5));
        Map<Long, Long> allowedPerWindow = new HashMap<>();
        List<Decision> refusals = new ArrayList<>();
        long intervalMicros = policy.interval().toNanos() / 1_000;
        for (int i = 0; i < 12; i++) {
            RedisRateLimiter client = i % 2 == 0 ? behind : ahead;
            ScriptReply reply = client.evaluate(policy, "shared", 1).toCompletableFuture().join();
            if (reply.decision().allowed()) {
                long window = algorithm == Algorithm.FIXED_WINDOW ? reply.nowMicros() / intervalMicros : 0;
                allowedPerWindow.merge(window, 1L, Long::sum);
            } else {
                refusals.add(reply.decision());
            }
        }
        // 12 calls take far less than the 5 s interval; only a fixed window can be cut by a boundary meanwhile.
        assertThat(allowedPerWindow.values()).allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(RATE))
                .contains(RATE);
        assertThat(refusals).isNotEmpty().allSatisfy(refusal -> assertThat(refusal.retryAfter())
                .as("retry-after on the shared timeline").isPositive().isLessThanOrEqualTo(policy.interval()));
    }

    @Test
    void clientTimeSlidingLogTheClientAheadEvictsTheOthersRecordsAndLocksItOut() {
        RateLimitPolicy policy = policy(Algorithm.SLIDING_LOG, TimeSource.CLIENT, Duration.ofSeconds(1));
        assertThat(allowed(stoppedBehind, policy, (int) RATE)).isEqualTo(RATE);

        // To the client 5 s ahead, records 5 s old have left the 1 s window: it gets a full quota again.
        assertThat(allowed(stoppedAhead, policy, 6)).as("admitted by the client ahead").isEqualTo(RATE);
        // To the client behind, the records written "in its future" count until that future plus the interval.
        Decision locked = stoppedBehind.tryAcquire(policy, "shared", 1);
        assertThat(locked.allowed()).isFalse();
        assertThat(locked.retryAfter()).as("the client behind waits for skew + interval")
                .isEqualTo(SKEW.plus(policy.interval()));
    }

    @Test
    void clientTimeTokenBucketTheClientAheadFindsTheBucketFullAndTheOtherWaitsForTheSkew() {
        RateLimitPolicy policy = policy(Algorithm.TOKEN_BUCKET, TimeSource.CLIENT, Duration.ofSeconds(1));
        assertThat(allowed(stoppedBehind, policy, (int) RATE)).isEqualTo(RATE);

        assertThat(allowed(stoppedAhead, policy, 6)).as("admitted by the client ahead").isEqualTo(RATE);
        // The bucket is empty until skew + burst x 250 ms on the behind client's clock; one permit refills after
        // 250 ms of that: 5 s + 1 s - 1 s + 250 ms.
        Decision locked = stoppedBehind.tryAcquire(policy, "shared", 1);
        assertThat(locked.allowed()).isFalse();
        assertThat(locked.retryAfter()).as("the client behind waits for the skew")
                .isEqualTo(SKEW.plusMillis(250));
    }

    @Test
    void clientTimeFixedWindowAlternatingClientsResetEachOthersWindowSoNothingIsLimited() {
        RateLimitPolicy policy = policy(Algorithm.FIXED_WINDOW, TimeSource.CLIENT, Duration.ofSeconds(1));
        long admitted = 0;
        for (int i = 0; i < 4 * RATE; i++) {
            admitted += allowed(i % 2 == 0 ? stoppedBehind : stoppedAhead, policy, 1);
        }
        // Each client sees the other's window as a stale one and starts its own count from zero.
        assertThat(admitted).as("admissions out of %d alternating calls, rate %d", 4 * RATE, RATE)
                .isEqualTo(4 * RATE);
    }

    private static long allowed(RedisRateLimiter client, RateLimitPolicy policy, int calls) {
        long allowed = 0;
        for (int i = 0; i < calls; i++) {
            if (client.tryAcquire(policy, "shared", 1).allowed()) {
                allowed++;
            }
        }
        return allowed;
    }
}
