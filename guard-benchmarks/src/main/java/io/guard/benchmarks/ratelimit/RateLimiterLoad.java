package io.guard.benchmarks.ratelimit;

import io.guard.ratelimit.Algorithm;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * Decisions per second of Guard's Redis limiter (each algorithm), Redisson's {@code RRateLimiter} and Bucket4j on
 * Redisson, in one run against one local {@code redis-server} that this program starts on a free loopback port:
 * 16 threads on one hot key, then on 1000 keys; then Redis memory per key at saturation.
 *
 * <p>{@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.ratelimit.RateLimiterLoad
 * [seconds per round, default 5] [warm-up seconds, default 3] [rounds, default 3]}
 */
public final class RateLimiterLoad {

    static final int THREADS = 16;
    private static final int KEYS = 1000;
    private static final long RATE = 1000;
    private static final Duration INTERVAL = Duration.ofSeconds(1);

    private RateLimiterLoad() {
    }

    public static void main(String[] args) throws Exception {
        Duration measure = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 5);
        Duration warmUp = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 3);
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        try (DedicatedRedis server = RedisServers.startDedicated()) {
            RedisEndpoint redis = server.endpoint("");
            System.out.printf("%s at %s; %d threads; %d rounds of %d s per case after %d s warm-up; %d permits / %s%n",
                    redis.call("INFO", "server").toString().lines().filter(l -> l.startsWith("redis_version"))
                            .findFirst().orElse("?").trim(), server.url(), THREADS, rounds, measure.toSeconds(),
                    warmUp.toSeconds(), RATE, INTERVAL);
            RedissonClient redisson = client(server.url());
            try {
                System.out.println("| keys | limiter | decisions/s (median) | min .. max | allowed/s "
                        + "| Redis CPU us per decision |");
                System.out.println("|---|---|---:|---:|---:|---:|");
                for (int keys : new int[] {1, KEYS}) {
                    List<Contender> contenders = contenders(redisson, "k" + keys, RATE);
                    List<List<Result>> results = new ArrayList<>();
                    for (Contender contender : contenders) {
                        for (int i = 0; i < keys; i++) {
                            contender.prepare(i);
                        }
                        run(contender, keys, warmUp);
                        results.add(new ArrayList<>());
                    }
                    // Rounds interleave the contenders, so a burst of load from elsewhere hits them all alike.
                    for (int round = 0; round < rounds; round++) {
                        for (int c = 0; c < contenders.size(); c++) {
                            ServerCpu before = ServerCpu.read(redis);
                            Result result = run(contenders.get(c), keys, measure);
                            results.get(c).add(result.withServer(ServerCpu.read(redis).minus(before)));
                        }
                    }
                    for (int c = 0; c < contenders.size(); c++) {
                        List<Result> runs = results.get(c);
                        runs.sort(java.util.Comparator.comparingDouble(Result::perSecond));
                        Result median = runs.get(runs.size() / 2);
                        long decisions = runs.stream().mapToLong(Result::decisions).sum();
                        ServerCpu work = runs.stream().map(Result::server).reduce(ServerCpu::plus).orElseThrow();
                        System.out.printf(Locale.ROOT, "| %s | %s | %,.0f | %,.0f .. %,.0f | %,.0f | %.1f |%n",
                                keys == 1 ? "hot key" : keys + " keys", contenders.get(c).name(), median.perSecond(),
                                runs.get(0).perSecond(), runs.get(runs.size() - 1).perSecond(),
                                median.allowed() * 1e9 / median.elapsed().toNanos(), (double) work.micros() / decisions);
                    }
                }
                printMemory(redis, redisson);
            } finally {
                redisson.shutdown();
            }
        }
    }

    private static List<Contender> contenders(RedissonClient redisson, String run, long rate) {
        List<Contender> all = new ArrayList<>();
        for (boolean refusalCache : new boolean[] {true, false}) {
            for (Algorithm algorithm : Algorithm.values()) {
                all.add(Contenders.guard(redisson, algorithm, refusalCache, run, rate, INTERVAL));
            }
        }
        all.add(Contenders.redisson(redisson, run, rate, INTERVAL, KEYS));
        all.add(Contenders.bucket4j(redisson, run, rate, INTERVAL));
        // -Dcontenders=TOKEN_BUCKET,Redisson runs only the contenders whose names contain one of the words.
        String only = System.getProperty("contenders");
        if (only != null && !only.isBlank()) {
            List<String> words = List.of(only.split(","));
            all.removeIf(c -> words.stream().noneMatch(w -> c.name().contains(w.trim())));
        }
        return all;
    }

    record Result(long decisions, long allowed, Duration elapsed, ServerCpu server) {
        double perSecond() {
            return decisions * 1e9 / elapsed.toNanos();
        }

        Result withServer(ServerCpu stats) {
            return new Result(decisions, allowed, elapsed, stats);
        }
    }

    static Result run(Contender contender, int keys, Duration duration) throws InterruptedException {
        LongAdder decisions = new LongAdder();
        LongAdder allowed = new LongAdder();
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(THREADS);
        long[] window = new long[2];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    long end = window[1];
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    while (System.nanoTime() < end) {
                        if (contender.tryAcquire(keys == 1 ? 0 : random.nextInt(keys))) {
                            allowed.increment();
                        }
                        decisions.increment();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            }, "load-" + t);
            thread.start();
            threads.add(thread);
        }
        window[0] = System.nanoTime();
        window[1] = window[0] + duration.toNanos();
        start.countDown();
        done.await();
        return new Result(decisions.sum(), allowed.sum(), Duration.ofNanos(System.nanoTime() - window[0]), null);
    }

    /** Fills one key of each contender to its limit and sums {@code MEMORY USAGE} over the keys it wrote. */
    private static void printMemory(RedisEndpoint redis, RedissonClient redisson) {
        System.out.println();
        System.out.println("| limiter | bytes per key, 1000 permits / 1 s saturated | bytes per key, 10 permits / 1 min saturated |");
        System.out.println("|---|---:|---:|");
        List<Contender> big = contenders(redisson, "mem1000", 1000);
        List<Contender> small = contenders(redisson, "mem10", 10);
        for (int i = 0; i < big.size(); i++) {
            System.out.printf("| %s | %d | %d |%n", big.get(i).name(), saturate(redis, big.get(i), 1000),
                    saturate(redis, small.get(i), 10));
        }
    }

    private static long saturate(RedisEndpoint redis, Contender contender, long rate) {
        contender.prepare(0);
        for (long i = 0; i < rate + 5; i++) {
            contender.tryAcquire(0);
        }
        long bytes = 0;
        for (String pattern : contender.keyPatterns(0)) {
            for (Object key : (List<?>) redis.call("KEYS", pattern)) {
                bytes += (Long) redis.call("MEMORY", "USAGE", (String) key, "SAMPLES", "0");
            }
        }
        return bytes;
    }

    private static RedissonClient client(String url) {
        Config config = new Config();
        config.useSingleServer().setAddress(url).setConnectionMinimumIdleSize(THREADS).setConnectionPoolSize(2 * THREADS);
        return Redisson.create(config);
    }
}
