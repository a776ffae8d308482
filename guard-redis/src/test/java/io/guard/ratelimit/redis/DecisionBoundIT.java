package io.guard.ratelimit.redis;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 12 item 4 and issue 22 item 2: a decision never waits on the Redis client's own patience, and the rule that
 * tells a sick Redis from a busy client still sees every sick Redis. Redisson at its default settings (3 s timeout,
 * retries 1.5 s apart) and Lettuce at Spring Data's (60 s command timeout), against a Redis that refuses connections
 * (stopped), whose connections are reset (killed with SIGKILL), and one that hangs in three ways ({@code CLIENT PAUSE},
 * {@code DEBUG SLEEP}, the process stopped with SIGSTOP): each decision is answered by its failure policy, three
 * failures open the backend breaker, calls are then answered without a round trip, and the trial call is bounded the
 * same way. No wall-clock speed is asserted: {@link #HANG_GUARD} only keeps a regression from hanging the build (the
 * clients' own defaults would need 4.5 s or more per call; Guard's bound is the timeout, 250 ms, or the patience
 * limit, 1 s, on a machine whose CPU is saturated, as a build machine often is).
 */
class DecisionBoundIT {

    /** Far above Guard's 250 ms, below what either client's defaults make a call wait. */
    private static final long HANG_GUARD = 3;

    private final DedicatedRedis server = RedisServers.startDedicated("--enable-debug-command", "yes");
    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
    private final CircuitBreaker breaker = breakers.circuitBreaker("guard-rate-limit-backend",
            FailoverRateLimiter.recommendedBreakerConfig());
    private RedissonClient redisson;
    private RedisClient lettuce;
    private RedisRateLimiter redis;
    private FailoverRateLimiter failover;
    private RateLimiterRegistry registry;

    @AfterEach
    void close() {
        if (registry != null) {
            registry.close();
            failover.close();
        }
        breakers.close();
        if (redisson != null) {
            redisson.shutdown();
        }
        if (lettuce != null) {
            lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
        if (server.isRunning()) {
            server.thaw(); // a frozen server must be able to die
        }
        server.close();
    }

    @ParameterizedTest(name = "{0}, Redis {1}")
    @CsvSource({"redisson, stopped", "redisson, reset", "redisson, paused", "redisson, sleeping", "redisson, frozen",
            "lettuce, stopped", "lettuce, reset", "lettuce, paused", "lettuce, sleeping", "lettuce, frozen"})
    void everyDecisionFollowsThePolicyAfterTheTimeoutAndTheBreakerOpensAfterThreeFailures(String client, String fault)
            throws Exception {
        connect(client);
        register("pay", BackendFailurePolicy.FAIL_CLOSED);
        register("browse", BackendFailurePolicy.FAIL_OPEN);
        awaitConnected();
        for (int i = 0; i < 5; i++) {
            assertThat(decide("pay").allowed()).as("Redis decides before the fault").isTrue();
        }
        assertThat(breaker.snapshot().successfulCalls()).as("a healthy history").isEqualTo(5);
        long batchesBefore = redis.batchesSent();

        injure(fault);

        assertThatThrownBy(() -> decide("pay")).as("FAIL_CLOSED refuses")
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(RateLimiterBackendException.class);
        assertThat(decide("browse").allowed()).as("FAIL_OPEN allows").isTrue();
        assertThat(breaker.state()).as("two failures of the last five").isEqualTo(State.CLOSED);
        assertThat(decide("browse").allowed()).isTrue();
        assertThat(breaker.state()).as("three failures of the last five open the breaker").isEqualTo(State.OPEN);
        assertThat(breaker.snapshot().failedCalls()).isEqualTo(3);
        long attemptsWhenOpened = redis.batchesSent();
        assertThat(attemptsWhenOpened - batchesBefore).as("one attempt per failed decision, none repeated")
                .isBetween(1L, 3L);

        long refusedBefore = breaker.notPermittedCalls();
        for (int i = 0; i < 20; i++) {
            assertThat(decide("browse").allowed()).isTrue();
        }
        assertThatThrownBy(() -> decide("pay")).hasCauseInstanceOf(RateLimiterBackendException.class);
        assertThat(breaker.notPermittedCalls() - refusedBefore).as("answered by the open breaker").isEqualTo(21);
        assertThat(redis.batchesSent()).as("no round trip while open").isEqualTo(attemptsWhenOpened);

        breaker.transitionToHalfOpenState();
        assertThat(decide("browse").allowed()).as("the trial call is answered by the policy").isTrue();
        assertThat(breaker.state()).as("the trial failed within the bound").isEqualTo(State.OPEN);
    }

    private void injure(String fault) {
        switch (fault) {
            case "stopped" -> server.stop();
            case "reset" -> server.kill();
            case "paused" -> assertThat(server.endpoint("").call("CLIENT", "PAUSE", "60000", "ALL")).isEqualTo("OK");
            case "sleeping" -> {
                Thread sleeper = new Thread(() -> {
                    try {
                        server.endpoint("").call("DEBUG", "SLEEP", "60");
                    } catch (RuntimeException expected) {
                        // the test ends (and kills the server) long before the sleep does
                    }
                }, "debug-sleep");
                sleeper.setDaemon(true);
                sleeper.start();
                awaitBlocked();
            }
            case "frozen" -> server.freeze();
            default -> throw new IllegalArgumentException(fault);
        }
    }

    /** Until a PING of our own goes unanswered: the server is inside DEBUG SLEEP. */
    private void awaitBlocked() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            CompletableFuture<Object> ping = CompletableFuture.supplyAsync(() -> server.endpoint("").call("PING"));
            try {
                ping.get(200, TimeUnit.MILLISECONDS);
            } catch (TimeoutException blocked) {
                return;
            } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException(e);
            }
            assertThat(System.nanoTime()).as("DEBUG SLEEP blocks the server within 10 s").isLessThan(deadline);
        }
    }

    private void connect(String client) {
        ScriptConnection connection;
        if (client.equals("redisson")) {
            Config config = new Config();
            config.useSingleServer().setAddress(server.url());
            redisson = Redisson.create(config);
            connection = RedissonScriptConnection.of(redisson);
        } else {
            lettuce = RedisClient.create(server.url());
            connection = LettuceScriptConnection.of(lettuce, Duration.ofSeconds(60));
        }
        redis = new RedisRateLimiter(connection, Clock.systemUTC(), "guard:", UUID.randomUUID().toString(), 0, 64);
        failover = new FailoverRateLimiter(redis, new LocalRateLimiter(Clock.systemUTC()), breaker, Clock.systemUTC());
        registry = new RateLimiterRegistry(failover, Clock.systemUTC(), 20);
    }

    /**
     * Waits (bounded) until the client has connected and Redis decides, straight through the Redis limiter: the
     * first connection is made in the background and may take longer than Guard's timeout on a busy machine.
     */
    private void awaitConnected() throws InterruptedException {
        RateLimitPolicy probe = new RateLimitPolicy("probe", Algorithm.SLIDING_LOG, 1000, Duration.ofSeconds(60), 0,
                Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try {
                redis.decide(probe, "k", 1).toCompletableFuture().get(HANG_GUARD, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException | TimeoutException e) {
                assertThat(System.nanoTime()).as("Redis decides within 20 s of the start").isLessThan(deadline);
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }
    }

    private void register(String name, BackendFailurePolicy onFailure) {
        registry.register(new RateLimitPolicy(name, Algorithm.SLIDING_LOG, 1000, Duration.ofSeconds(60), 0,
                Scope.GLOBAL, TimeSource.SERVER, onFailure));
    }

    /** The decision, waited for no longer than the hang guard. */
    private Decision decide(String name) throws ExecutionException, InterruptedException, TimeoutException {
        CompletableFuture<Decision> decision = registry.tryAcquireAsync(name, "k", 1).toCompletableFuture();
        return decision.get(HANG_GUARD, TimeUnit.SECONDS);
    }
}
