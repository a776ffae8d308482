package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.Failures;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
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
 * Decisions that leave together run as one script ({@code decide.lua}) deciding them in the order they were
 * submitted: on each client, the first call is held back so that the next ones queue and leave as one batch, and
 * every answer is checked against what the same calls one by one would get.
 */
@RedisTest
class BatchedDecisionsIT {

    private static BothClients clients;
    private final RedisEndpoint redis;

    BatchedDecisionsIT(RedisEndpoint redis) {
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

    private static ScriptConnection real(String client) {
        return clients.connection(client);
    }

    private static RateLimitPolicy policy(String name, Algorithm algorithm, long rate) {
        return new RateLimitPolicy(name, algorithm, rate, Duration.ofHours(1), 0, Scope.GLOBAL, TimeSource.SERVER,
                BackendFailurePolicy.FAIL_CLOSED);
    }

    /** A held first call on its own key, then {@code requests}, all sent as the next batches once released. */
    private static List<CompletableFuture<Decision>> batched(RedisRateLimiter limiter, HeldBackConnection connection,
                                                              List<Request> requests) throws Exception {
        CompletableFuture<Decision> first = limiter.tryAcquireAsync(policy("opener", Algorithm.TOKEN_BUCKET, 10),
                "opener", 1).toCompletableFuture();
        List<CompletableFuture<Decision>> decisions = new ArrayList<>();
        for (Request request : requests) {
            decisions.add(limiter.tryAcquireAsync(request.policy(), request.key(), 1).toCompletableFuture());
        }
        assertThat(connection.sent()).as("only the first call has left").hasSize(1);
        connection.release();
        first.get(10, TimeUnit.SECONDS);
        CompletableFuture.allOf(decisions.toArray(CompletableFuture[]::new)).handle((ok, error) -> null)
                .get(10, TimeUnit.SECONDS);
        return decisions;
    }

    private record Request(RateLimitPolicy policy, String key) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"redisson", "lettuce"})
    void severalRequestsOnOneKeyInOneBatchAreDecidedInOrder(String client) throws Exception {
        HeldBackConnection connection = new HeldBackConnection(real(client));
        try (RedisRateLimiter limiter = new RedisRateLimiter(connection, Clock.systemUTC(), redis.keyPrefix(), "b",
                0, Pipeline.DEFAULT_MAX_BATCH)) {
            RateLimitPolicy policy = policy("same-key", Algorithm.SLIDING_LOG, 3);
            List<CompletableFuture<Decision>> decisions = batched(limiter, connection,
                    List.of(new Request(policy, "k"), new Request(policy, "k"), new Request(policy, "k"),
                            new Request(policy, "k"), new Request(policy, "k")));

            assertThat(decisions.stream().map(CompletableFuture::join).map(Decision::allowed))
                    .containsExactly(true, true, true, false, false);
            assertThat(decisions.stream().map(CompletableFuture::join).map(Decision::remaining))
                    .containsExactly(2L, 1L, 0L, 0L, 0L);
            assertThat(connection.sent()).as("the five requests left as one script run").hasSize(2);
            assertThat(connection.sent().get(1)).hasSize(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"redisson", "lettuce"})
    void mixedAlgorithmsInOneBatchEachDecideAsAlone(String client) throws Exception {
        HeldBackConnection connection = new HeldBackConnection(real(client));
        try (RedisRateLimiter limiter = new RedisRateLimiter(connection, Clock.systemUTC(), redis.keyPrefix(), "b",
                0, Pipeline.DEFAULT_MAX_BATCH)) {
            RateLimitPolicy bucket = policy("mixed-bucket", Algorithm.TOKEN_BUCKET, 2);
            RateLimitPolicy log = policy("mixed-log", Algorithm.SLIDING_LOG, 1);
            RateLimitPolicy window = policy("mixed-window", Algorithm.FIXED_WINDOW, 2);
            List<CompletableFuture<Decision>> decisions = batched(limiter, connection, List.of(
                    new Request(bucket, "a"), new Request(log, "a"), new Request(window, "a"),
                    new Request(bucket, "a"), new Request(log, "a"), new Request(window, "a"),
                    new Request(bucket, "a"), new Request(log, "b"), new Request(window, "a")));

            assertThat(decisions.stream().map(CompletableFuture::join).map(Decision::allowed))
                    .containsExactly(true, true, true, true, false, true, false, true, false);
            assertThat(decisions.stream().map(CompletableFuture::join).map(Decision::remaining))
                    .containsExactly(1L, 0L, 1L, 0L, 0L, 0L, 0L, 0L, 0L);
            assertThat(connection.sent().get(1)).as("nine decisions, one script run").hasSize(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"redisson", "lettuce"})
    void aBadKeyInsideABatchAffectsOnlyItsOwnDecision(String client) throws Exception {
        HeldBackConnection connection = new HeldBackConnection(real(client));
        try (RedisRateLimiter limiter = new RedisRateLimiter(connection, Clock.systemUTC(), redis.keyPrefix(), "b",
                0, Pipeline.DEFAULT_MAX_BATCH)) {
            RateLimitPolicy log = policy("bad-log", Algorithm.SLIDING_LOG, 5);
            RateLimitPolicy bucket = policy("bad-bucket", Algorithm.TOKEN_BUCKET, 5);
            // A sorted set with a record no Guard wrote: the sliding log cannot read it, a Lua error.
            List<String> logKeys = limiter.keys(log, "corrupt");
            redis.call("ZADD", logKeys.get(0), "1", "not-a-record");
            // A key of the wrong type: the token bucket deletes it and starts afresh.
            redis.call("RPUSH", limiter.keys(bucket, "wrong-type").get(0), "x");

            List<CompletableFuture<Decision>> decisions = batched(limiter, connection, List.of(
                    new Request(bucket, "fine"), new Request(log, "corrupt"), new Request(bucket, "wrong-type"),
                    new Request(log, "fine"), new Request(bucket, "fine")));

            assertThat(decisions.get(1)).isCompletedExceptionally();
            assertThat(Failures.unwrap(decisions.get(1).handle((ok, error) -> error).join()))
                    .isInstanceOf(RateLimiterBackendException.class)
                    .hasMessageContaining("bad-log").hasMessageContaining("could not decide");
            List<Decision> others = List.of(decisions.get(0).join(), decisions.get(2).join(),
                    decisions.get(3).join(), decisions.get(4).join());
            assertThat(others).allMatch(Decision::allowed);
            assertThat(others.stream().map(Decision::remaining)).containsExactly(4L, 4L, 4L, 3L);
            assertThat(redis.call("TYPE", limiter.keys(bucket, "wrong-type").get(0))).hasToString("string");
            assertThat(connection.sent().get(1)).as("one script run for the five").hasSize(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"redisson", "lettuce"})
    void aQueueLongerThanTheMaxBatchLeavesInSeveralRunsStillInOrder(String client) throws Exception {
        HeldBackConnection connection = new HeldBackConnection(real(client));
        try (RedisRateLimiter limiter = new RedisRateLimiter(connection, Clock.systemUTC(), redis.keyPrefix(), "b",
                0, 4)) {
            RateLimitPolicy policy = policy("long-queue", Algorithm.FIXED_WINDOW, 6);
            List<Request> requests = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                requests.add(new Request(policy, "k"));
            }
            List<CompletableFuture<Decision>> decisions = batched(limiter, connection, requests);

            assertThat(decisions.stream().map(CompletableFuture::join).map(Decision::allowed))
                    .containsExactly(true, true, true, true, true, true, false, false, false, false);
            assertThat(decisions.stream().map(CompletableFuture::join).map(Decision::remaining))
                    .containsExactly(5L, 4L, 3L, 2L, 1L, 0L, 0L, 0L, 0L, 0L);
            assertThat(connection.sent()).as("the held call, then 4 + 4 + 2").hasSize(4);
            assertThat(connection.sent().subList(1, 4)).allMatch(calls -> calls.size() == 1);
            assertThat(connection.sent().get(3).get(0).args()).as("two entries of one limit")
                    .filteredOn("fixed_window"::equals).hasSize(2);
        }
    }
}
