package io.guard.benchmarks.ratelimit;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.redis.LettuceScriptConnection;
import io.guard.ratelimit.redis.RedissonScriptConnection;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;
import io.lettuce.core.RedisClient;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Guard on each Redis client next to Redisson's {@code RRateLimiter} and Bucket4j, where every decision is a script:
 * a rate no one reaches (every request allowed) and no refusal cache. 16 threads on 1000 keys and on one hot key:
 * decisions per second and Redis CPU per decision at full speed; p50/p99 latency at a fixed offered load, each the
 * median of as many interleaved rounds as the throughput has (one round's p99 moves by milliseconds with a GC
 * pause); and the ceiling of the same server in the same run, {@code redis-benchmark} sending an {@code EVALSHA} of
 * Guard's token bucket with the same arguments, unpipelined and pipelined 16 deep.
 *
 * <p>{@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.ratelimit.ClientsLoad
 * [seconds per round, default 4] [warm-up seconds, default 2] [rounds, default 3] [offered load per second, default
 * 5000]}
 */
public final class ClientsLoad {

    private static final int THREADS = RateLimiterLoad.THREADS;
    /** Nobody reaches it: every decision is an allow, and a script. */
    private static final long RATE = 1_000_000_000L;
    private static final Duration INTERVAL = Duration.ofSeconds(1);

    private ClientsLoad() {
    }

    public static void main(String[] args) throws Exception {
        Duration measure = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 4);
        Duration warmUp = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 2);
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int offered = args.length > 3 ? Integer.parseInt(args[3]) : 5_000;
        try (DedicatedRedis server = RedisServers.startDedicated()) {
            RedisEndpoint redis = server.endpoint("");
            RedissonClient redisson = redisson(server.url());
            RedisClient lettuce = RedisClient.create(server.url());
            try {
                System.out.printf("%s; %d threads; %d rounds of %d s after %d s warm-up; offered load %d/s%n",
                        redis.call("INFO", "server").toString().lines().filter(l -> l.startsWith("redis_version"))
                                .findFirst().orElse("?").trim(), THREADS, rounds, measure.toSeconds(),
                        warmUp.toSeconds(), offered);
                System.out.println("| keys | limiter | decisions/s (median) | min .. max | Redis CPU us per decision "
                        + "| p50 ms at " + offered + "/s (median) | p99 ms at " + offered + "/s (median) "
                        + "| p99 min .. max |");
                System.out.println("|---|---|---:|---:|---:|---:|---:|---:|");
                for (int keys : new int[] {1000, 1}) {
                    String run = "c" + keys;
                    List<Contender> contenders = List.of(
                            Contenders.guard(RedissonScriptConnection.of(redisson), Algorithm.TOKEN_BUCKET, false,
                                    run, RATE, INTERVAL),
                            Contenders.guard(LettuceScriptConnection.of(lettuce, Duration.ofSeconds(3)),
                                    Algorithm.TOKEN_BUCKET, false, run, RATE, INTERVAL),
                            Contenders.guard(RedissonScriptConnection.of(redisson), Algorithm.SLIDING_LOG, false,
                                    run, RATE, INTERVAL),
                            Contenders.guard(LettuceScriptConnection.of(lettuce, Duration.ofSeconds(3)),
                                    Algorithm.SLIDING_LOG, false, run, RATE, INTERVAL),
                            Contenders.redisson(redisson, run, RATE, INTERVAL, 1000),
                            Contenders.bucket4j(redisson, run, RATE, INTERVAL));
                    List<List<RateLimiterLoad.Result>> results = new ArrayList<>();
                    for (Contender contender : contenders) {
                        for (int i = 0; i < keys; i++) {
                            contender.prepare(i);
                        }
                        RateLimiterLoad.run(contender, keys, warmUp);
                        results.add(new ArrayList<>());
                    }
                    for (int round = 0; round < rounds; round++) {
                        for (int c = 0; c < contenders.size(); c++) {
                            ServerCpu before = ServerCpu.read(redis);
                            RateLimiterLoad.Result result = RateLimiterLoad.run(contenders.get(c), keys, measure);
                            results.get(c).add(result.withServer(ServerCpu.read(redis).minus(before)));
                        }
                    }
                    // Latency rounds interleaved like the throughput rounds: a GC pause or a scheduler hiccup moves
                    // one round's p99 by milliseconds, so each contender's figure is the median of its rounds.
                    List<List<long[]>> latencyRounds = new ArrayList<>();
                    contenders.forEach(contender -> latencyRounds.add(new ArrayList<>()));
                    for (int round = 0; round < rounds; round++) {
                        for (int c = 0; c < contenders.size(); c++) {
                            long[] latencies = latencies(contenders.get(c), keys, offered, measure);
                            latencyRounds.get(c).add(new long[] {percentile(latencies, 0.50),
                                    percentile(latencies, 0.99)});
                        }
                    }
                    for (int c = 0; c < contenders.size(); c++) {
                        List<RateLimiterLoad.Result> runs = results.get(c);
                        runs.sort(java.util.Comparator.comparingDouble(RateLimiterLoad.Result::perSecond));
                        long decisions = runs.stream().mapToLong(RateLimiterLoad.Result::decisions).sum();
                        ServerCpu work = runs.stream().map(RateLimiterLoad.Result::server).reduce(ServerCpu::plus)
                                .orElseThrow();
                        long[] p50 = latencyRounds.get(c).stream().mapToLong(round -> round[0]).sorted().toArray();
                        long[] p99 = latencyRounds.get(c).stream().mapToLong(round -> round[1]).sorted().toArray();
                        System.out.printf(Locale.ROOT,
                                "| %s | %s | %,.0f | %,.0f .. %,.0f | %.1f | %.2f | %.2f | %.2f .. %.2f |%n",
                                keys == 1 ? "hot key" : keys + " keys", contenders.get(c).name(),
                                runs.get(runs.size() / 2).perSecond(), runs.get(0).perSecond(),
                                runs.get(runs.size() - 1).perSecond(), (double) work.micros() / decisions,
                                p50[p50.length / 2] / 1e6, p99[p99.length / 2] / 1e6, p99[0] / 1e6,
                                p99[p99.length - 1] / 1e6);
                    }
                }
                ceiling(server, redis);
            } finally {
                redisson.shutdown();
                lettuce.shutdown();
            }
        }
    }

    /**
     * Open loop: each thread sends at its own fixed schedule, and latency counts from when a request was due, so a
     * stall delays (and is charged to) the requests behind it too.
     */
    private static long[] latencies(Contender contender, int keys, int perSecond, Duration duration)
            throws InterruptedException {
        long periodNanos = TimeUnit.SECONDS.toNanos(1) * THREADS / perSecond;
        int perThread = (int) (duration.toNanos() / periodNanos);
        long[][] samples = new long[THREADS][perThread];
        CountDownLatch done = new CountDownLatch(THREADS);
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                long offset = periodNanos * thread / THREADS;
                for (int i = 0; i < perThread; i++) {
                    long due = start + offset + i * periodNanos;
                    long wait;
                    while ((wait = due - System.nanoTime()) > 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    }
                    contender.tryAcquire(keys == 1 ? 0 : random.nextInt(keys));
                    samples[thread][i] = System.nanoTime() - due;
                }
                done.countDown();
            }, "paced-" + t).start();
        }
        done.await();
        return Arrays.stream(samples).flatMapToLong(Arrays::stream).sorted().toArray();
    }

    private static long percentile(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }

    /** redis-benchmark with Guard's token-bucket EVALSHA, 1000 keys, 16 clients: unpipelined and 16 deep. */
    private static void ceiling(DedicatedRedis server, RedisEndpoint redis) throws Exception {
        Path cli = RedisServers.binary().path().resolveSibling("redis-benchmark");
        if (!Files.isExecutable(cli)) {
            System.out.println("no redis-benchmark next to " + RedisServers.binary().path() + ": ceiling not measured");
            return;
        }
        String source;
        try (var in = ClientsLoad.class.getClassLoader().getResourceAsStream("guard/lua/token_bucket.lua")) {
            source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String sha = redis.call("SCRIPT", "LOAD", source).toString();
        System.out.println();
        System.out.println("| ceiling (redis-benchmark, EVALSHA token_bucket, 1000 keys, 16 clients) | requests/s "
                + "| Redis CPU us per request |");
        System.out.println("|---|---:|---:|");
        for (int pipeline : new int[] {1, 16}) {
            List<String> command = List.of(cli.toString(), "-h", server.host(), "-p", Integer.toString(server.port()),
                    "-c", "16", "-n", "400000", "-r", "1000", "-P", Integer.toString(pipeline), "-q",
                    "EVALSHA", sha, "1", "bench:{ceiling:__rand_int__}:tat", "", Long.toString(RATE),
                    "1000000", "1", Long.toString(RATE), "1");
            ServerCpu before = ServerCpu.read(redis);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor(120, TimeUnit.SECONDS);
            ServerCpu used = ServerCpu.read(redis).minus(before);
            String rps = output.lines().filter(l -> l.contains("requests per second")).reduce((a, b) -> b)
                    .map(l -> l.replaceAll(".*?: *([0-9.,]+) requests per second.*", "$1")).orElse(output.trim());
            System.out.printf(Locale.ROOT, "| %s | %s | %.1f |%n",
                    pipeline == 1 ? "unpipelined (-P 1)" : "pipelined (-P 16)", rps, used.micros() / 400_000.0);
        }
    }

    private static RedissonClient redisson(String url) {
        Config config = new Config();
        config.useSingleServer().setAddress(url).setConnectionMinimumIdleSize(THREADS)
                .setConnectionPoolSize(2 * THREADS);
        return Redisson.create(config);
    }
}
