package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Costs known after the call, charged by two instances on one Redis: one limiter on a Redisson client, one on a
 * Lettuce connection, four callers each, on the server's clock. Each call takes an estimate of 1 to 5 permits when
 * admitted and costs 0 to 20 (a refund when below). The bound (docs/cost.md): every admission needs the balance it
 * takes, so what the admitted calls cost in all stays within the burst, plus what the quota refilled meanwhile, plus
 * the costs beyond their estimates of the calls in flight when the balance ran out: at most one call per caller.
 * Without the charges, the same calls would cost about three times as much as the limit allows.
 */
@RedisTest
class CostChargeAcrossInstancesIT {

    private static final int CALLERS_PER_INSTANCE = 4;
    private static final Duration RUN = Duration.ofMillis(1500);
    /** 2,000 per second, a burst of 200: one permit is worth 0.5 ms. */
    private static final RateLimitPolicy POLICY = new RateLimitPolicy("llm-tokens", Algorithm.TOKEN_BUCKET, 2_000,
            Duration.ofSeconds(1), 200, Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED);

    private final BothClients clients;
    private final RedisRateLimiter first;
    private final RedisRateLimiter second;

    CostChargeAcrossInstancesIT(RedisEndpoint redis) {
        clients = new BothClients(redis);
        first = new RedisRateLimiter(clients.connection("redisson"), Clock.systemUTC(), redis.keyPrefix(), "first",
                RedisRateLimiter.DEFAULT_REFUSAL_CACHE_SIZE, 16);
        second = new RedisRateLimiter(clients.connection("lettuce"), Clock.systemUTC(), redis.keyPrefix(), "second",
                RedisRateLimiter.DEFAULT_REFUSAL_CACHE_SIZE, 16);
    }

    @AfterEach
    void close() {
        first.close();
        second.close();
        clients.close();
    }

    @Test
    void twoInstancesNeverChargeMoreThanTheLimitPlusTheUnreservedCostsInFlight() throws Exception {
        AtomicLong cost = new AtomicLong();
        AtomicLong unreserved = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(2 * CALLERS_PER_INSTANCE);
        long start = System.nanoTime();
        long deadline = start + RUN.toNanos();
        List<Future<Integer>> callers = new ArrayList<>();
        try {
            for (int c = 0; c < 2 * CALLERS_PER_INSTANCE; c++) {
                RedisRateLimiter instance = c % 2 == 0 ? first : second;
                long seed = 7 + c;
                callers.add(pool.submit(() -> call(instance, new Random(seed), deadline, cost, unreserved)));
            }
            List<Integer> admitted = new ArrayList<>();
            for (Future<Integer> caller : callers) {
                admitted.add(caller.get(60, TimeUnit.SECONDS));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long limit = POLICY.burst() + (long) Math.ceil(POLICY.rate() * seconds);
            long bound = limit + 2L * CALLERS_PER_INSTANCE * unreserved.get();
            System.out.printf("Costs after the call, two instances: %d calls cost %d in %.3f s; limit %d, bound %d%n",
                    admitted.stream().mapToInt(Integer::intValue).sum(), cost.get(), seconds, limit, bound);
            assertThat(admitted).as("calls admitted per caller; both instances took part").allMatch(n -> n > 0);
            assertThat(cost.get()).as("cost of the admitted calls in %.3f s; the limit is %d", seconds, limit)
                    .isLessThanOrEqualTo(bound);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One caller until the deadline: admitted calls, each charged before the caller's next call. */
    private static int call(RedisRateLimiter instance, Random random, long deadline, AtomicLong cost,
                            AtomicLong unreserved) {
        int admitted = 0;
        while (System.nanoTime() < deadline) {
            long estimate = 1 + random.nextInt(5);
            Decision decision = instance.tryAcquire(POLICY, "tenant-a", estimate);
            if (!decision.allowed()) {
                LockSupport.parkNanos(Math.min(decision.retryAfter().toNanos(), TimeUnit.MILLISECONDS.toNanos(5)));
                continue;
            }
            admitted++;
            long consumed = random.nextInt(21);
            cost.addAndGet(consumed);
            unreserved.accumulateAndGet(consumed - estimate, Math::max);
            instance.charge(POLICY, "tenant-a", consumed - estimate).toCompletableFuture().join();
        }
        return admitted;
    }

    @Test
    void aDebtChargedOnOneInstanceRefusesTheOtherUntilTheRefillHasPaidIt() {
        RateLimitPolicy policy = new RateLimitPolicy("llm-debt", Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(60),
                0, Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED);
        second.inspect(policy, "warm-up").toCompletableFuture().join(); // connected before the clock below runs
        long start = System.nanoTime();
        assertThat(first.tryAcquire(policy, "tenant-b", 1).allowed()).isTrue();

        Quota charged = first.charge(policy, "tenant-b", 29).toCompletableFuture().join();

        assertThat(charged.debt()).as("10 - 1 - 29").isEqualTo(20);
        Decision refused = second.tryAcquire(policy, "tenant-b", 1);
        Duration since = Duration.ofNanos(System.nanoTime() - start);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.retryAfter()).as("21 permits of 6 s each, less the %s since the admission", since)
                .isBetween(Duration.ofSeconds(126).minus(since), Duration.ofSeconds(126));
        assertThat(second.inspect(policy, "tenant-b").toCompletableFuture().join().debt()).isEqualTo(20);
        Quota refunded = second.charge(policy, "tenant-b", -25).toCompletableFuture().join();
        assertThat(refunded.debt()).isZero();
        assertThat(refunded.remaining()).as("10 - 1 - 29 + 25").isEqualTo(5);
        assertThat(second.tryAcquire(policy, "tenant-b", 1).allowed())
                .as("the refund dropped the refusal this instance remembered").isTrue();
    }
}
