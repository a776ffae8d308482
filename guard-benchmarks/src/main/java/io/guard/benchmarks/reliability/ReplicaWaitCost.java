package io.guard.benchmarks.reliability;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.ReplicaWait;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.redis.LettuceScriptConnection;
import io.guard.ratelimit.redis.RedisRateLimiter;
import io.guard.ratelimit.redis.RedissonScriptConnection;
import io.guard.ratelimit.redis.ScriptConnection;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisSentinels;
import io.lettuce.core.RedisClient;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What {@code wait-for-replicas: 1} costs a decision: a primary with one replica on loopback (the Sentinel
 * harness's), each client, {@code threads} threads deciding one limit for {@code seconds} per round, rounds with and
 * without the WAIT interleaved so that both see the same machine. Prints decisions per second and the median and
 * 99th percentile latency per round, and the ratios of the sums.
 *
 * <p>{@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.reliability.ReplicaWaitCost
 * [threads, default 8] [seconds per round, default 3] [rounds, default 3]}
 */
public final class ReplicaWaitCost {

    private ReplicaWaitCost() {
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        try (RedisSentinels deployment = RedisSentinels.start()) {
            DedicatedRedis primary = deployment.primary();
            System.out.printf("%d threads, %d s per round, %d rounds per setting, primary with 1 replica on "
                    + "loopback%n", threads, seconds, rounds);
            System.out.println("| client | wait-for-replicas | round | decisions/s | median (us) | p99 (us) |");
            System.out.println("|---|---|---|---|---|---|");
            for (String client : new String[] {"redisson", "lettuce"}) {
                double[] totals = new double[2];
                for (int round = 1; round <= rounds; round++) {
                    for (int wait = 0; wait <= 1; wait++) {
                        totals[wait] += run(client, primary, wait, threads, seconds, round);
                    }
                }
                System.out.printf(Locale.ROOT, "%s: with WAIT %.2fx the decisions per second of without%n", client,
                        totals[1] / totals[0]);
            }
        }
        System.exit(0);
    }

    private static double run(String client, DedicatedRedis primary, int replicas, int threads, int seconds,
                              int round) throws Exception {
        RedissonClient redisson = null;
        RedisClient lettuce = null;
        ScriptConnection connection;
        if (client.equals("redisson")) {
            Config config = new Config();
            config.useSingleServer().setAddress(primary.url()).setConnectionPoolSize(threads)
                    .setConnectionMinimumIdleSize(threads);
            redisson = Redisson.create(config);
            connection = RedissonScriptConnection.of(redisson);
        } else {
            lettuce = RedisClient.create(primary.url());
            connection = LettuceScriptConnection.of(lettuce, Duration.ofSeconds(5));
        }
        RateLimitPolicy policy = new RateLimitPolicy("wait-cost", Algorithm.FIXED_WINDOW, 1L << 40,
                Duration.ofDays(3_650), 0, Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED,
                replicas == 0 ? ReplicaWait.NONE : new ReplicaWait(replicas, Duration.ofMillis(100)));
        try (RedisRateLimiter limiter = new RedisRateLimiter(connection, Clock.systemUTC(), "bench:",
                UUID.randomUUID().toString(), 0, 64)) {
            for (int i = 0; i < 200; i++) {
                limiter.decide(policy, "warm-up", 1).toCompletableFuture().get(5, TimeUnit.SECONDS);
            }
            AtomicBoolean running = new AtomicBoolean(true);
            List<long[]> latencies = new ArrayList<>();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long[] mine = new long[500_000];
                latencies.add(mine);
                Thread worker = new Thread(() -> {
                    int n = 0;
                    while (running.get() && n < mine.length - 1) {
                        long start = System.nanoTime();
                        try {
                            limiter.decide(policy, "k", 1).toCompletableFuture().get(5, TimeUnit.SECONDS);
                        } catch (Exception e) {
                            continue;
                        }
                        mine[++n] = System.nanoTime() - start;
                    }
                    mine[0] = n;
                });
                workers.add(worker);
                worker.start();
            }
            Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
            running.set(false);
            for (Thread worker : workers) {
                worker.join(10_000);
            }
            long count = latencies.stream().mapToLong(l -> l[0]).sum();
            long[] all = new long[(int) count];
            int at = 0;
            for (long[] l : latencies) {
                System.arraycopy(l, 1, all, at, (int) l[0]);
                at += (int) l[0];
            }
            Arrays.sort(all);
            double perSecond = count / (double) seconds;
            System.out.printf(Locale.ROOT, "| %s | %d | %d | %.0f | %d | %d |%n", client, replicas, round, perSecond,
                    all.length == 0 ? 0 : all[all.length / 2] / 1000, all.length == 0 ? 0
                            : all[(int) (all.length * 0.99)] / 1000);
            return perSecond;
        } finally {
            if (redisson != null) {
                redisson.shutdown();
            }
            if (lettuce != null) {
                lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            }
        }
    }
}
