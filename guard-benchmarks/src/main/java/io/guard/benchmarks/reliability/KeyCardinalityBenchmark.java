package io.guard.benchmarks.reliability;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.redis.RedisRateLimiter;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A key cardinality attack at full size: one million distinct keys hit once each, per algorithm, against a
 * {@code redis-server} this program starts on a free loopback port. Prints Redis memory per limit at the peak and
 * how long the keys take to expire (memory back to where it started). The scaled-down version that runs in the
 * test command is {@code KeyCardinalityIT}.
 *
 * <p>{@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.reliability.KeyCardinalityBenchmark
 * [keys, default 1000000] [interval seconds, default 60]}
 */
public final class KeyCardinalityBenchmark {

    private KeyCardinalityBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Duration interval = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 60);
        try (DedicatedRedis server = RedisServers.startDedicated()) {
            RedisEndpoint redis = server.endpoint("");
            RedissonClient redisson = client(server.url());
            RedisRateLimiter limiter = new RedisRateLimiter(redisson, Clock.systemUTC(), "card:", "bench");
            try {
                for (Algorithm algorithm : Algorithm.values()) {
                    limiter.tryAcquire(RateLimitPolicy.of("warm", algorithm, 1, Duration.ofMillis(10)), "w", 1);
                }
                Thread.sleep(100);
                System.out.printf("%d keys per algorithm, interval %s, Redis %s%n", keys, interval,
                        Memory.field((String) redis.call("INFO", "server"), "redis_version"));
                System.out.println("| algorithm | write time | decisions/s | limits alive at the end | memory at peak "
                        + "| bytes per limit | expired after | memory after |");
                System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
                for (Algorithm algorithm : Algorithm.values()) {
                    run(limiter, redis, RateLimitPolicy.of("card-" + algorithm, algorithm, 5, interval), keys);
                }
            } finally {
                limiter.close();
                redisson.shutdown();
            }
        }
    }

    private static void run(RedisRateLimiter limiter, RedisEndpoint redis, RateLimitPolicy policy, int keys)
            throws Exception {
        long baseline = Memory.used(redis);
        long start = System.nanoTime();
        Semaphore inFlight = new Semaphore(512);
        AtomicLong refused = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        for (int i = 0; i < keys; i++) {
            inFlight.acquire();
            CompletableFuture<Decision> call = limiter.tryAcquireAsync(policy, "user-" + i, 1).toCompletableFuture();
            call.whenComplete((decision, error) -> {
                inFlight.release();
                if (error != null) {
                    failed.incrementAndGet();
                } else if (!decision.allowed()) {
                    refused.incrementAndGet();
                }
            });
        }
        inFlight.acquire(512);
        inFlight.release(512);
        long writeNanos = System.nanoTime() - start;
        long dbSize = (Long) redis.call("DBSIZE");
        long peak = Memory.used(redis);
        long keysPerLimit = policy.algorithm() == Algorithm.SLIDING_LOG ? 2 : 1;
        long alive = dbSize / keysPerLimit;
        long expiryStart = System.nanoTime();
        long deadline = expiryStart + policy.interval().toNanos() + TimeUnit.MINUTES.toNanos(2);
        while ((Long) redis.call("DBSIZE") > 0 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        Thread.sleep(1_000);
        long after = Memory.used(redis);
        System.out.printf(Locale.ROOT, "| %s | %.1f s | %,.0f | %,d | +%,d bytes | %,d | %.1f s after the last write "
                        + "(%d keys left) | %+,d bytes vs start |%n", policy.algorithm(), writeNanos / 1e9,
                keys * 1e9 / writeNanos, alive, peak - baseline, alive == 0 ? -1 : (peak - baseline) / alive,
                (System.nanoTime() - expiryStart) / 1e9, (Long) redis.call("DBSIZE"), after - baseline);
        if (refused.get() + failed.get() > 0) {
            System.out.printf("  (%d refused, %d failed: a first hit on a fresh key should always pass)%n",
                    refused.get(), failed.get());
        }
    }

    private static RedissonClient client(String url) {
        Config config = new Config();
        config.setNettyThreads(8);
        config.useSingleServer().setAddress(url).setConnectionMinimumIdleSize(8).setConnectionPoolSize(16)
                .setTimeout(10_000);
        return Redisson.create(config);
    }
}
