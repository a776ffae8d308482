package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RedissonClients;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key cardinality attack, scaled down: 20,000 distinct keys hit once each on a limit of every algorithm, on a
 * server of the test's own. Every key Guard wrote must expire by itself, giving the memory back; the bytes per
 * limit are printed for docs/reliability.md (the million-key run is
 * {@code io.guard.benchmarks.reliability.KeyCardinalityBenchmark}).
 */
class KeyCardinalityIT {

    private static final int KEYS = 20_000;
    private static final Duration INTERVAL = Duration.ofSeconds(2);
    /**
     * What Redis keeps after a wave of expiries: hash tables it shrinks lazily, about 60-130 kB here whatever the
     * keys (plain {@code SET ... PX} keys leave the same on Redis 7.0). Bounded, unlike keys that never expire.
     */
    private static final long SLACK_BYTES = 256 * 1024;

    private final DedicatedRedis server = RedisServers.startDedicated();
    private final RedisEndpoint redis = server.endpoint("card:");
    private final RedissonClient redisson = RedissonClients.create(server.url(), 10_000);
    private final RedisRateLimiter limiter = new RedisRateLimiter(redisson, Clock.systemUTC(), "card:", "it");

    @AfterEach
    void close() {
        limiter.close();
        redisson.shutdown();
        server.close();
    }

    @Test
    void everyKeyExpiresAndMemoryReturnsToWhereItStarted() throws Exception {
        // Scripts are cached by Redis for good: load them before the baseline, and let their keys expire.
        for (Algorithm algorithm : Algorithm.values()) {
            limiter.tryAcquire(RateLimitPolicy.of("warm-" + algorithm, algorithm, 1, Duration.ofMillis(50)), "w", 1);
        }
        awaitEmpty(Duration.ofSeconds(10));
        long baseline = usedMemory();

        List<RateLimitPolicy> policies = new ArrayList<>();
        for (Algorithm algorithm : Algorithm.values()) {
            policies.add(RateLimitPolicy.of("card-" + algorithm, algorithm, 5, INTERVAL));
        }
        long started = System.nanoTime();
        Map<Algorithm, Long> sampledBytes = hitOnceEach(policies);
        long writeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        long keysAtEnd = dbSize();
        long peak = usedMemory();

        long expiryStart = System.nanoTime();
        awaitEmpty(Duration.ofSeconds(40));
        long allowed = baseline + SLACK_BYTES;
        long after = awaitMemoryAtMost(allowed, Duration.ofSeconds(20));
        System.out.printf("cardinality: %d keys x %s written in %d ms; at the end %d Redis keys alive, memory "
                        + "+%d bytes; MEMORY USAGE per limit %s; all expired %d ms after the last write; "
                        + "used_memory - mem_clients_normal %d -> %d%n", KEYS,
                policies.stream().map(RateLimitPolicy::algorithm).toList(),
                writeMillis, keysAtEnd, peak - baseline, sampledBytes,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - expiryStart), baseline, after);
        assertThat(sampledBytes).as("bytes per limit, sampled while alive").hasSize(Algorithm.values().length);
        assertThat(after).as("memory after expiry vs %d at start and %d at the peak", baseline, peak)
                .isLessThanOrEqualTo(allowed);
    }

    /**
     * Hits every key once on every policy, a bounded number of calls in flight. Right after each 1000th key, its
     * limits' keys are inspected: each must carry a TTL of at most the interval plus the expiry margin, and their
     * MEMORY USAGE is averaged per algorithm.
     */
    private Map<Algorithm, Long> hitOnceEach(List<RateLimitPolicy> policies) throws Exception {
        Semaphore inFlight = new Semaphore(128);
        AtomicLong refused = new AtomicLong();
        Map<Algorithm, long[]> usage = new EnumMap<>(Algorithm.class);
        List<CompletableFuture<Decision>> calls = new ArrayList<>(KEYS * policies.size());
        for (int i = 0; i < KEYS; i++) {
            for (RateLimitPolicy policy : policies) {
                inFlight.acquire();
                String key = "user-" + i;
                CompletableFuture<Decision> call = limiter.tryAcquireAsync(policy, key, 1).toCompletableFuture();
                call.whenComplete((decision, error) -> {
                    inFlight.release();
                    if (decision != null && !decision.allowed()) {
                        refused.incrementAndGet();
                    }
                });
                calls.add(call);
                if (i % 1000 == 0) {
                    call.get(10, TimeUnit.SECONDS);
                    inspect(policy, key, usage.computeIfAbsent(policy.algorithm(), a -> new long[2]));
                }
            }
        }
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        assertThat(refused.get()).as("a first hit on a fresh key is always allowed").isZero();
        Map<Algorithm, Long> average = new EnumMap<>(Algorithm.class);
        usage.forEach((algorithm, sum) -> average.put(algorithm, sum[1] == 0 ? -1 : sum[0] / sum[1]));
        return average;
    }

    private void inspect(RateLimitPolicy policy, String key, long[] usage) {
        long bytes = 0;
        for (String redisKey : LimitKeys.of("card:", "it", policy, key)) {
            long ttl = (Long) redis.call("PTTL", redisKey);
            assertThat(ttl).as("PTTL of %s", redisKey).isPositive().isLessThanOrEqualTo(INTERVAL.toMillis() + 1);
            bytes += (Long) redis.call("MEMORY", "USAGE", redisKey, "SAMPLES", "0");
        }
        usage[0] += bytes;
        usage[1]++;
    }

    private void awaitEmpty(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (dbSize() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(dbSize()).as("keys left %s after the deadline", limit).isZero();
    }

    private long awaitMemoryAtMost(long bytes, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        long used = usedMemory();
        while (used > bytes && System.nanoTime() < deadline) {
            Thread.sleep(100);
            used = usedMemory();
        }
        return used;
    }

    private long dbSize() {
        return (Long) redis.call("DBSIZE");
    }

    /**
     * {@code used_memory} less the client buffers ({@code mem_clients_normal}), which grow and shrink with the
     * client's pipelining rather than with the keys.
     */
    private long usedMemory() {
        String info = (String) redis.call("INFO", "memory");
        return field(info, "used_memory") - field(info, "mem_clients_normal");
    }

    private static long field(String info, String name) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1).trim());
            }
        }
        throw new IllegalStateException("INFO memory has no " + name + ": " + info);
    }
}
