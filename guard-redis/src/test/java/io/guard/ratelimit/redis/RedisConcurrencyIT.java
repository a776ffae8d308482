package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RedissonClients;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 16 threads on one key. Each admission's time is the server's own (returned by the script), so the check below
 * replays admissions on the timeline Redis decided on: no window of {@code interval} may hold more than
 * {@code rate}, and GCRA may never run ahead of {@code burst + elapsed / T}.
 */
@RedisTest
class RedisConcurrencyIT {

    private static final int THREADS = 16;
    private static final Duration RUN = Duration.ofMillis(1200);
    /** What the checks need at least: admissions spanning more than two windows of 20. */
    private static final int ENOUGH_ADMISSIONS = 2 * 20;
    private static final Duration MORE_AT_MOST = Duration.ofSeconds(10);

    private final RedissonClient redisson;
    private final RedisRateLimiter limiter;

    RedisConcurrencyIT(RedisEndpoint redis) {
        redisson = RedissonClients.create(redis.url());
        limiter = new RedisRateLimiter(redisson, Clock.systemUTC(), redis.keyPrefix(), "one");
    }

    @AfterEach
    void close() {
        limiter.close();
        redisson.shutdown();
    }

    private static RateLimitPolicy policy(Algorithm algorithm) {
        return new RateLimitPolicy("hot-" + algorithm, algorithm, 20, Duration.ofMillis(100), 0, Scope.GLOBAL,
                TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED);
    }

    @Test
    void slidingLogNeverAdmitsMoreThanTheRateInAnyWindow() throws Exception {
        RateLimitPolicy policy = policy(Algorithm.SLIDING_LOG);
        List<Long> admitted = hammer(policy);
        long interval = TimeUnit.MILLISECONDS.toMicros(100);

        // About 12 windows; a loaded machine may leave some unsaturated, which only makes the check below easier.
        assertThat(admitted.size()).as("the key was saturated for several windows").isGreaterThan(ENOUGH_ADMISSIONS);
        for (int i = 0; i + 20 < admitted.size(); i++) {
            assertThat(admitted.get(i + 20) - admitted.get(i)).as("admissions %d..%d", i, i + 20)
                    .isGreaterThanOrEqualTo(interval);
        }
    }

    @Test
    void tokenBucketStaysWithinItsBound() throws Exception {
        RateLimitPolicy policy = policy(Algorithm.TOKEN_BUCKET);
        List<Long> admitted = hammer(policy);
        double emission = TimeUnit.MILLISECONDS.toMicros(100) / 20.0;

        assertThat(admitted.size()).isGreaterThan(ENOUGH_ADMISSIONS);
        for (int i = 0; i < admitted.size(); i++) {
            for (int j = i; j < admitted.size(); j++) {
                double bound = 20 + (admitted.get(j) - admitted.get(i)) / emission + 1e-6;
                assertThat((double) (j - i + 1)).as("admissions %d..%d", i, j).isLessThanOrEqualTo(bound);
            }
        }
    }

    @Test
    void fixedWindowNeverAdmitsMoreThanTheRatePerWindow() throws Exception {
        RateLimitPolicy policy = policy(Algorithm.FIXED_WINDOW);
        List<Long> admitted = hammer(policy);
        long interval = TimeUnit.MILLISECONDS.toMicros(100);

        assertThat(admitted.size()).isGreaterThan(ENOUGH_ADMISSIONS);
        admitted.stream().collect(java.util.stream.Collectors.groupingBy(t -> t / interval,
                        java.util.stream.Collectors.counting()))
                .forEach((window, count) -> assertThat(count).as("window %d", window).isLessThanOrEqualTo(20));
    }

    private List<Long> hammer(RateLimitPolicy policy) throws Exception {
        // Connected and its scripts loaded first: a cold client under load spent most of the run connecting.
        limiter.warmUp().toCompletableFuture().get(30, TimeUnit.SECONDS);
        ConcurrentLinkedQueue<Long> admissions = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        long end = System.nanoTime() + RUN.toNanos();
        // On a busy machine, on until enough admissions to span several windows, within a bound.
        long latest = end + MORE_AT_MOST.toNanos();
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                workers.add(pool.submit(() -> {
                    start.await();
                    for (long now = System.nanoTime(); now < end
                            || (admissions.size() <= ENOUGH_ADMISSIONS && now < latest); now = System.nanoTime()) {
                        ScriptReply reply = limiter.evaluate(policy, "hot", 1).toCompletableFuture().join();
                        if (reply.decision().allowed()) {
                            admissions.add(reply.nowMicros());
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> worker : workers) {
                worker.get(RUN.plus(MORE_AT_MOST).toMillis() + 10_000, TimeUnit.MILLISECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        List<Long> sorted = new ArrayList<>(admissions);
        Collections.sort(sorted);
        return sorted;
    }
}
