package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimitRequest;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several limits of one call decided all-or-nothing in one script, counted in Redis itself: a refused call leaves
 * no permit spent on any limit, also with hundreds of calls in flight at once.
 */
@RedisTest
class GroupDecisionsIT {

    private static BothClients clients;
    private final RedisEndpoint redis;

    GroupDecisionsIT(RedisEndpoint redis) {
        this.redis = redis;
    }

    @BeforeAll
    static void connect(RedisEndpoint shared) {
        clients = new BothClients(shared);
    }

    @AfterAll
    static void disconnect() {
        clients.close();
    }

    private RedisRateLimiter limiter(String client) {
        return new RedisRateLimiter(clients.connection(client), Clock.systemUTC(), redis.keyPrefix(), "g", 0,
                Pipeline.DEFAULT_MAX_BATCH);
    }

    private static RateLimitPolicy policy(String name, long rate) {
        return new RateLimitPolicy(name, Algorithm.SLIDING_LOG, rate, Duration.ofHours(1), 0, Scope.GLOBAL,
                TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED);
    }

    /** Permits in use as the sliding log's own summary in Redis says, and records in its log. */
    private List<Long> spent(RedisRateLimiter limiter, RateLimitPolicy policy, String key) {
        List<String> keys = limiter.keys(policy, key);
        return List.of(Long.parseLong(String.valueOf(redis.call("HGET", keys.get(1), "u"))),
                Long.parseLong(String.valueOf(redis.call("ZCARD", keys.get(0)))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"redisson", "lettuce"})
    void aCallRefusedByOneLimitSpendsNothingOnTheOther(String client) {
        try (RedisRateLimiter limiter = limiter(client)) {
            RateLimitPolicy a = policy("a-" + client, 5);
            RateLimitPolicy b = policy("b-" + client, 2);
            List<RateLimitRequest> call = List.of(new RateLimitRequest(a, "user", 1), new RateLimitRequest(b, "user", 1));
            List<Boolean> allowed = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                List<BackendOutcome> outcomes = limiter.decideAll(call).toCompletableFuture().join();
                allowed.add(outcomes.stream().allMatch(outcome -> outcome.decision().allowed()));
                if (i == 2) {
                    assertThat(outcomes.get(1).decision().allowed()).as("B refuses the third call").isFalse();
                    assertThat(outcomes.get(0).decision().allowed()).as("A alone would have allowed it").isTrue();
                }
            }
            assertThat(allowed).containsExactly(true, true, false);
            assertThat(spent(limiter, a, "user")).as("A's permits in use and records in Redis").containsExactly(2L, 2L);
            assertThat(spent(limiter, b, "user")).containsExactly(2L, 2L);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"redisson", "lettuce"})
    void concurrentCallsSpendExactlyTheAllowedCallsPermitsOnEveryLimit(String client) throws Exception {
        try (RedisRateLimiter limiter = limiter(client)) {
            RateLimitPolicy a = policy("busy-a-" + client, 50);
            RateLimitPolicy b = policy("busy-b-" + client, 20);
            List<RateLimitRequest> call = List.of(new RateLimitRequest(a, "user", 2), new RateLimitRequest(b, "user", 1));
            List<CompletableFuture<List<BackendOutcome>>> calls = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                calls.add(limiter.decideAll(call).toCompletableFuture());
            }
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

            long allowed = calls.stream().map(CompletableFuture::join)
                    .filter(outcomes -> outcomes.stream().allMatch(outcome -> outcome.decision().allowed())).count();
            assertThat(allowed).as("A has room for 25 calls, B for 20").isEqualTo(20);
            assertThat(spent(limiter, a, "user")).as("2 permits for each allowed call, none for the others")
                    .containsExactly(40L, 20L);
            assertThat(spent(limiter, b, "user")).containsExactly(20L, 20L);
        }
    }
}
