package io.guard.benchmarks.ratelimit;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.redis.LettuceScriptConnection;
import io.guard.ratelimit.redis.RedisRateLimiter;
import io.guard.benchmarks.RedisInfo;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;
import io.lettuce.core.RedisClient;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What each algorithm costs where users choose one (docs/algorithms.md): Redis memory per limited key, Redis CPU and
 * this client's CPU per decision, for a limit of {@code rate} per 60 s with every key filled up to its limit (the
 * worst case for SLIDING_LOG, which keeps one log entry per permit in the window). Guard's Redis backend on Lettuce,
 * a {@code redis-server} started on loopback, decisions sent asynchronously with up to 64 in flight (so pipelined
 * as under load). Arguments: rates (default {@code 10,100,1000}), decisions per rate (default 100000). Run:
 * {@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.ratelimit.AlgorithmFootprint}.
 */
public final class AlgorithmFootprint {

    private AlgorithmFootprint() {
    }

    public static void main(String[] args) throws Exception {
        String[] rates = (args.length > 0 ? args[0] : "10,100,1000").split(",");
        long perRate = args.length > 1 ? Long.parseLong(args[1]) : 100_000;
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (DedicatedRedis redis = RedisServers.startDedicated()) {
            RedisEndpoint endpoint = redis.endpoint("");
            RedisClient client = RedisClient.create(redis.url());
            RedisRateLimiter limiter = new RedisRateLimiter(LettuceScriptConnection.of(client, Duration.ofSeconds(3)),
                    Clock.systemUTC(), "fp:", "fp", 0, 64);
            System.out.printf(Locale.ROOT, "%-13s %6s %6s %10s %14s %16s %16s%n", "algorithm", "rate", "keys",
                    "decisions", "bytes per key", "Redis us/dec", "client us/dec");
            // warm-up: JIT and the script cache
            for (Algorithm algorithm : Algorithm.values()) {
                fill(limiter, RateLimitPolicy.of("warm-" + algorithm, algorithm, 1000, Duration.ofSeconds(60)), 50,
                        1000);
            }
            for (String rateText : rates) {
                long rate = Long.parseLong(rateText);
                int keys = (int) Math.max(1, Math.min(1000, perRate / rate));
                for (Algorithm algorithm : Algorithm.values()) {
                    endpoint.call("FLUSHALL");
                    long memory = RedisInfo.usedMemory(endpoint);
                    double redisCpu = RedisInfo.cpuMicros(endpoint);
                    long clientCpu = os.getProcessCpuTime();
                    RateLimitPolicy policy = RateLimitPolicy.of("fp-" + algorithm.name().toLowerCase(Locale.ROOT)
                            + "-" + rate, algorithm, rate, Duration.ofSeconds(60));
                    long decisions = fill(limiter, policy, keys, rate);
                    double clientMicros = (os.getProcessCpuTime() - clientCpu) / 1e3 / decisions;
                    double redisMicros = (RedisInfo.cpuMicros(endpoint) - redisCpu) / decisions;
                    long bytes = RedisInfo.usedMemory(endpoint) - memory;
                    System.out.printf(Locale.ROOT, "%-13s %6d %6d %10d %14.0f %16.1f %16.1f%n", algorithm, rate, keys,
                            decisions, bytes / (double) keys, redisMicros, clientMicros);
                }
            }
            limiter.close();
            client.shutdown();
        }
        System.out.println("load average: " + java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg"))
                .trim());
    }

    /** {@code rate} allowed decisions on each of {@code keys} keys; returns how many were decided. */
    private static long fill(RedisRateLimiter limiter, RateLimitPolicy policy, int keys, long rate)
            throws InterruptedException {
        Semaphore inFlight = new Semaphore(64);
        AtomicLong refused = new AtomicLong();
        long decisions = 0;
        for (long round = 0; round < rate; round++) {
            for (int key = 0; key < keys; key++) {
                inFlight.acquire();
                CompletableFuture<BackendOutcome> outcome = limiter.decide(policy, "user-" + key, 1)
                        .toCompletableFuture();
                outcome.whenComplete((decided, error) -> {
                    if (error != null || !decided.decision().allowed()) {
                        refused.incrementAndGet();
                    }
                    inFlight.release();
                });
                decisions++;
            }
        }
        inFlight.acquire(64);
        if (refused.get() > 0) {
            throw new IllegalStateException(policy.name() + ": " + refused.get() + " decisions refused or failed; "
                    + "every one should have been allowed");
        }
        return decisions;
    }
}
