package io.guard.ratelimit;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.ratelimit.redis.RedisRateLimiter;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each failure policy against a Redis server that is really stopped, then started again on the same port. */
class FailoverRateLimiterIT {

    private final DedicatedRedis server = RedisServers.startDedicated();
    private final RedissonClient client = RedissonClients.create(server.url(), 250);
    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
    private final CircuitBreaker breaker = breakers.circuitBreaker("rate-limit-backend",
            FailoverRateLimiter.recommendedBreakerConfig().toBuilder()
                    .waitDurationInOpenState(Duration.ofMillis(300)).build());
    private final FailoverRateLimiter failover = new FailoverRateLimiter(
            new RedisRateLimiter(client, Clock.systemUTC(), "guard:", "it"), new LocalRateLimiter(Clock.systemUTC()),
            breaker, Clock.systemUTC());
    private final RateLimiterRegistry registry = new RateLimiterRegistry(failover, Clock.systemUTC(), 50);

    @AfterEach
    void close() {
        registry.close();
        failover.close();
        breakers.close();
        client.shutdown();
        server.close();
    }

    private void register(String name, BackendFailurePolicy onFailure) {
        registry.register(new RateLimitPolicy(name, Algorithm.SLIDING_LOG, 2, Duration.ofSeconds(30), 0,
                Scope.GLOBAL, TimeSource.SERVER, onFailure));
    }

    @Test
    void eachFailurePolicyAnswersWhileRedisIsDownAndRedisTakesOverAgain() throws InterruptedException {
        register("open", BackendFailurePolicy.FAIL_OPEN);
        register("closed", BackendFailurePolicy.FAIL_CLOSED);
        register("local", BackendFailurePolicy.LOCAL);
        for (String name : new String[] {"open", "closed", "local"}) {
            assertThat(registry.tryAcquire(name, "k", 1).allowed()).isTrue();
            assertThat(registry.stats(name)).isEqualTo(new LimiterStats(1, 0, 0));
        }

        server.stop();

        assertThat(registry.tryAcquire("open", "k", 1).allowed()).isTrue();
        assertThat(registry.tryAcquire("open", "k", 1).allowed()).as("fail-open ignores the quota").isTrue();
        assertThatThrownBy(() -> registry.tryAcquire("closed", "k", 1)).isInstanceOf(RateLimiterBackendException.class);
        assertThat(registry.tryAcquire("local", "k", 1).allowed()).isTrue();
        assertThat(registry.tryAcquire("local", "k", 1).allowed()).isTrue();
        assertThat(registry.tryAcquire("local", "k", 1).allowed()).as("local enforces the same policy").isFalse();
        assertThat(registry.stats("open").errors()).isEqualTo(2);
        assertThat(registry.stats("closed").errors()).isEqualTo(1);
        assertThat(registry.stats("local").errors()).isEqualTo(3);

        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(registry.backendHealth().up()).isFalse();
        assertThat(registry.backendHealth().lastError())
                .matches("RateLimiterBackendException <- \\w*Redis\\w*Exception.*");
        long start = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            assertThat(registry.tryAcquire("open", "k", 1).allowed()).isTrue();
        }
        // 20 calls that each waited for Redis would take 20 x 250 ms.
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("an open breaker costs no timeouts")
                .isLessThan(Duration.ofSeconds(2));

        server.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!(breaker.state() == State.CLOSED && registry.backendHealth().up()) && System.nanoTime() < deadline) {
            registry.tryAcquire("open", "k", 1);
            Thread.sleep(50);
        }
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        assertThat(registry.backendHealth().up()).isTrue();
        long permittedBefore = registry.stats("closed").permitted();
        assertThat(registry.tryAcquire("closed", "k", 1).allowed()).isTrue();
        assertThat(registry.stats("closed").permitted()).isEqualTo(permittedBefore + 1);
        assertThat(server.endpoint("guard:").keys()).contains("guard:{closed:k}:log");
    }
}
