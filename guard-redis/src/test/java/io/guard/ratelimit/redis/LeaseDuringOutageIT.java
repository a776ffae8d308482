package io.guard.ratelimit.redis;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.lease.LeaseSize;
import io.guard.ratelimit.lease.LeasingRateLimiter;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import io.guard.time.CallbackTimer;
import io.guard.time.GuardClock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Redis killed while an instance holds a lease, behind the failover as the starter assembles it: the lease in hand
 * (permits Redis already counted as spent) keeps admitting until it expires, answered like remembered refusals are,
 * without the backend breaker; after that the limit's failure policy answers (here FAIL_CLOSED: refused with the
 * backend's failure).
 */
class LeaseDuringOutageIT {

    private static final Duration INTERVAL = Duration.ofMinutes(10);
    private static final Duration LIFETIME = Duration.ofSeconds(3);

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"TOKEN_BUCKET", "FIXED_WINDOW"})
    void aLeaseInHandIsSpentUntilItExpiresThenTheFailurePolicyAnswers(Algorithm algorithm) throws Exception {
        // A long interval, so that the lease lives its whole lifetime (3 s: time for a loaded machine to kill Redis
        // and make 50 decisions), which a fixed window's end would cut short.
        RateLimitPolicy policy = new RateLimitPolicy("outage-" + algorithm, algorithm, 1_000, INTERVAL, 0,
                Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED);
        try (DedicatedRedis server = RedisServers.startDedicated();
             BothClients clients = new BothClients(server.endpoint(""));
             CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
             CallbackTimer timer = new CallbackTimer("lease-outage-timer", "lease-outage-expiry", 1)) {
            RedisRateLimiter redis = new RedisRateLimiter(clients.connection("lettuce"), Clock.systemUTC(), "guard:",
                    UUID.randomUUID().toString(), 0, 64);
            LeasingRateLimiter leasing = new LeasingRateLimiter(redis, redis.leases(), name -> new LeaseSize(false,
                    100), timer, GuardClock.system(), LIFETIME, 100);
            try (FailoverRateLimiter failover = new FailoverRateLimiter(leasing, new LocalRateLimiter(
                    Clock.systemUTC()), breakers.circuitBreaker("guard-rate-limit-backend",
                    FailoverRateLimiter.recommendedBreakerConfig(Duration.ofMillis(250))), Clock.systemUTC())) {
                redis.warmUp().toCompletableFuture().get(30, TimeUnit.SECONDS); // as the starter does before serving
                // Redis's clock is this machine's: not within 10 s of a fixed window's end, which would cut the lease.
                await().atMost(Duration.ofSeconds(15)).until(() ->
                        INTERVAL.toMillis() - System.currentTimeMillis() % INTERVAL.toMillis() > 10_000);
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> failover.tryAcquire(policy, "k", 1).allowed()
                        && leasing.stats().permitsHeld() == 99);
                long leaseTaken = System.nanoTime();
                server.kill();
                int admitted = 0;
                for (int i = 0; i < 50; i++) {
                    assertThat(failover.tryAcquire(policy, "k", 1).allowed()).as("decision %d from the lease", i)
                            .isTrue();
                    admitted++;
                }
                assertThat(leasing.stats().permitsHeld()).isEqualTo(99 - admitted);
                // Only the lease's lifetime stands between the outage and the failure policy.
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                        assertThatThrownBy(() -> failover.tryAcquire(policy, "k", 1))
                                .isInstanceOf(RateLimiterBackendException.class));
                assertThat(Duration.ofNanos(System.nanoTime() - leaseTaken)).as("the lease's lifetime, less the take")
                        .isGreaterThan(LIFETIME.dividedBy(2));
            }
        }
    }
}
