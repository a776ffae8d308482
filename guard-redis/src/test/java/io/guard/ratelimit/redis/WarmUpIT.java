package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisCounters;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 22 item 1 at the backend: {@link RedisRateLimiter#warmUp()} leaves the client connected with every script in
 * Redis's cache, so that the first decision opens no connection and loads no script; with Redis down it fails, and
 * succeeds once Redis is back. On clients that connect on first use: a lazy Redisson client (the kind Guard makes for
 * itself) and Lettuce. A server of its own, so that its counters see only this test's traffic.
 */
class WarmUpIT {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static DedicatedRedis redis;

    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void startRedis() {
        redis = RedisServers.startDedicated();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @BeforeEach
    void emptyScriptCache() {
        if (!redis.isRunning()) {
            redis.start();
        }
        server().call("SCRIPT", "FLUSH");
    }

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"redisson", "lettuce"})
    void afterTheWarmUpTheFirstDecisionNeitherConnectsNorLoadsAScript(String client) {
        RedisRateLimiter limiter = limiter(client);
        int clientsBefore = clients();

        limiter.warmUp().toCompletableFuture().orTimeout(BOUND.toSeconds(), TimeUnit.SECONDS).join();

        LuaScript decide = DecideScript.load();
        LuaScript reset = LuaScript.fromResource("reset");
        assertThat(server().call("SCRIPT", "EXISTS", decide.sha(), reset.sha())).as("both scripts loaded")
                .isEqualTo(List.of(1L, 1L));
        assertThat(clients()).as("the client's connections, script and pub/sub, stand (CLIENT LIST)")
                .isGreaterThanOrEqualTo(clientsBefore + 2);
        assertThat(server().keys()).as("the warm-up wrote nothing")
                .noneMatch(key -> key.contains("{" + RedisRateLimiter.WARM_UP));

        RedisCounters before = RedisCounters.read(server());
        Decision first = limiter.decide(RateLimitPolicy.of("first", Algorithm.SLIDING_LOG, 5,
                Duration.ofMinutes(1)), "ada", 1).toCompletableFuture().join().decision();
        RedisCounters after = RedisCounters.read(server());

        assertThat(first.allowed()).isTrue();
        assertThat(after.connectionsReceived()).as("no connection opened but the probe's own")
                .isEqualTo(before.connectionsReceived() + 1);
        assertThat(after.calls("script")).as("no SCRIPT LOAD").isEqualTo(before.calls("script"));
        assertThat(after.calls("eval")).as("no EVAL after a NOSCRIPT").isEqualTo(before.calls("eval"));
        assertThat(after.calls("evalsha")).as("the decision ran by digest").isEqualTo(before.calls("evalsha") + 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"redisson", "lettuce"})
    void withRedisDownTheWarmUpFailsAndOnceRedisIsBackItSucceeds(String client) {
        redis.stop();
        RedisRateLimiter limiter = limiter(client);

        assertThatThrownBy(() -> limiter.warmUp().toCompletableFuture().orTimeout(BOUND.toSeconds(), TimeUnit.SECONDS)
                .join()).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(RateLimiterBackendException.class)
                .cause().hasMessageStartingWith("warm-up: Redis could not connect");

        redis.start();
        limiter.warmUp().toCompletableFuture().orTimeout(BOUND.toSeconds(), TimeUnit.SECONDS).join();

        assertThat(server().call("SCRIPT", "EXISTS", DecideScript.load().sha())).isEqualTo(List.of(1L));
    }

    private RedisRateLimiter limiter(String client) {
        ScriptConnection connection;
        if (client.equals("redisson")) {
            Config config = new Config();
            config.setLazyInitialization(true);
            config.setThreads(2);
            config.setNettyThreads(4);
            config.useSingleServer().setAddress(redis.url()).setConnectionMinimumIdleSize(1)
                    .setConnectionPoolSize(4).setSubscriptionConnectionMinimumIdleSize(1)
                    .setSubscriptionConnectionPoolSize(1).setConnectTimeout(1_000).setTimeout(1_000)
                    .setRetryAttempts(0);
            RedissonClient redisson = Redisson.create(config);
            closing.add(redisson::shutdown);
            connection = RedissonScriptConnection.of(redisson);
        } else {
            LettuceConnectionFactory factory = new LettuceConnectionFactory(
                    new RedisStandaloneConfiguration(redis.host(), redis.port()));
            factory.afterPropertiesSet();
            closing.add(factory::destroy);
            connection = LettuceScriptConnection.of(factory);
        }
        RedisRateLimiter limiter = new RedisRateLimiter(connection, Clock.systemUTC(), "warmup-it:",
                client, 0, Pipeline.DEFAULT_MAX_BATCH);
        closing.add(limiter);
        return limiter;
    }

    private static RedisEndpoint server() {
        return redis.endpoint("warmup-it:");
    }

    /** Connected clients but the probe asking (CLIENT LIST). */
    private static int clients() {
        String list = (String) server().call("CLIENT", "LIST");
        return (int) list.lines().filter(line -> !line.isBlank()).count() - 1;
    }
}
