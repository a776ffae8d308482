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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.redisson.api.RedissonClient;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hundreds of decisions in flight at once on one key, on each client: they leave in batches, and the answers are
 * exactly those of one-by-one calls in some order (each permit granted once: the {@code remaining} of the grants
 * count down through every value once), also when Redis has just forgotten the scripts.
 */
@RedisTest
class PipelinedDecisionsIT {

    private static final int CALLS = 400;
    private static final long RATE = 100;

    private static RedissonClient redisson;
    private static LettuceConnectionFactory factory;
    private final RedisEndpoint redis;

    PipelinedDecisionsIT(RedisEndpoint redis) {
        this.redis = redis;
    }

    @BeforeAll
    static void connect(RedisEndpoint shared) {
        redisson = RedissonClients.create(shared.url());
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(shared.host(), shared.port()));
        factory.afterPropertiesSet();
    }

    @AfterAll
    static void disconnect() {
        redisson.shutdown();
        factory.destroy();
    }

    static Stream<Arguments> clients() {
        List<Arguments> clients = new ArrayList<>();
        for (Algorithm algorithm : Algorithm.values()) {
            clients.add(Arguments.of("redisson", algorithm));
            clients.add(Arguments.of("lettuce", algorithm));
        }
        return clients.stream();
    }

    private ScriptConnection connection(String client) {
        Supplier<ScriptConnection> make = client.equals("redisson") ? () -> RedissonScriptConnection.of(redisson)
                : () -> LettuceScriptConnection.of(factory);
        return make.get();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("clients")
    void concurrentDecisionsLeaveInBatchesAndEachPermitIsGrantedOnce(String client, Algorithm algorithm)
            throws Exception {
        try (RedisRateLimiter limiter = new RedisRateLimiter(connection(client), Clock.systemUTC(), redis.keyPrefix(),
                "p", 0, Pipeline.DEFAULT_MAX_BATCH)) {
            for (boolean flushed : new boolean[] {false, true}) {
                RateLimitPolicy policy = new RateLimitPolicy("burst-" + flushed, algorithm, RATE, Duration.ofHours(1),
                        0, Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED);
                if (flushed) {
                    redis.call("SCRIPT", "FLUSH");
                }
                long batchesBefore = limiter.batchesSent();
                List<CompletableFuture<Decision>> decisions = new ArrayList<>();
                for (int i = 0; i < CALLS; i++) {
                    decisions.add(limiter.tryAcquireAsync(policy, "hot", 1).toCompletableFuture());
                }
                CompletableFuture.allOf(decisions.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

                List<Decision> granted = decisions.stream().map(CompletableFuture::join).filter(Decision::allowed)
                        .toList();
                assertThat(granted).as("%s, scripts flushed first: %s", client, flushed).hasSize((int) RATE);
                assertThat(granted.stream().map(Decision::remaining))
                        .as("every remaining count from %d down to 0, once", RATE - 1)
                        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, RATE).boxed().toList());
                assertThat(decisions.stream().map(CompletableFuture::join).filter(d -> !d.allowed()))
                        .allMatch(d -> d.remaining() == 0);
                assertThat(limiter.batchesSent() - batchesBefore).as("batches for %d calls", CALLS)
                        .isLessThan(CALLS);
            }
        }
    }
}
