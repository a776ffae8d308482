package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

/**
 * One of the processes of {@link MultiProcessAdmissionIT}: hammers the limits it is told about from several threads
 * and prints every admission with the Redis server time at which the script granted it.
 *
 * <p>Arguments: {@code url prefix threads phaseMillis rate intervalMillis phase...}, where a phase is
 * {@code ALGORITHM/key1,key2,...}. Prints {@code READY} once connected, waits for a line on standard input, runs the
 * phases one after another (threads spread over the phase's keys), then prints {@code ADMIT ALGORITHM key micros}
 * per admission and {@code DONE}. Other lines (logging) are ignored by the reader.
 */
public final class AdmissionWorker {

    private AdmissionWorker() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String prefix = args[1];
        int threads = Integer.parseInt(args[2]);
        long phaseNanos = Duration.ofMillis(Long.parseLong(args[3])).toNanos();
        long rate = Long.parseLong(args[4]);
        Duration interval = Duration.ofMillis(Long.parseLong(args[5]));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        RedissonClient redisson = client(url, threads);
        RedisRateLimiter limiter = new RedisRateLimiter(redisson, Clock.systemUTC(), prefix, "worker");
        try {
            // Load every script and open every connection now, so that no phase waits for start-up work.
            for (Algorithm algorithm : Algorithm.values()) {
                limiter.evaluate(RateLimitPolicy.of("warm-up", algorithm, 1, interval), "w", 1)
                        .toCompletableFuture().join();
            }
            out.println("READY");
            out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            ConcurrentLinkedQueue<String> admissions = new ConcurrentLinkedQueue<>();
            for (int p = 6; p < args.length; p++) {
                String[] phase = args[p].split("/", 2);
                RateLimitPolicy policy = new RateLimitPolicy("multi-" + phase[0], Algorithm.valueOf(phase[0]), rate,
                        interval, 0, Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED);
                runPhase(limiter, policy, phase[1].split(","), threads, phaseNanos, admissions);
            }
            admissions.forEach(out::println);
            out.println("DONE");
            out.flush();
        } finally {
            limiter.close();
            redisson.shutdown();
        }
    }

    /**
     * One connection per thread, opened up front; a generous timeout, as three JVMs share a small machine. Redisson
     * repeats only commands it could not write, which Redis never saw, so the retries cannot hide an admission.
     */
    private static RedissonClient client(String url, int threads) {
        Config config = new Config();
        config.setThreads(2);
        config.setNettyThreads(threads);
        config.useSingleServer().setAddress(url)
                .setConnectionMinimumIdleSize(threads)
                .setConnectionPoolSize(threads)
                .setSubscriptionConnectionMinimumIdleSize(0)
                .setSubscriptionConnectionPoolSize(1)
                .setConnectTimeout(10_000)
                .setTimeout(10_000)
                .setRetryAttempts(20);
        return Redisson.create(config);
    }

    private static void runPhase(RedisRateLimiter limiter, RateLimitPolicy policy, String[] keys, int threads,
                                 long phaseNanos, ConcurrentLinkedQueue<String> admissions) throws Exception {
        long end = System.nanoTime() + phaseNanos;
        CountDownLatch done = new CountDownLatch(threads);
        List<Throwable> errors = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String key = keys[t % keys.length];
            Thread thread = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        ScriptReply reply = limiter.evaluate(policy, key, 1).toCompletableFuture().join();
                        if (reply.decision().allowed()) {
                            admissions.add("ADMIT " + policy.algorithm() + " " + key + " " + reply.nowMicros());
                        }
                    }
                } catch (Throwable e) {
                    synchronized (errors) {
                        errors.add(e);
                    }
                } finally {
                    done.countDown();
                }
            }, "admission-" + t);
            thread.start();
        }
        done.await();
        if (!errors.isEmpty()) {
            throw new IllegalStateException(policy.name() + ": " + errors.size() + " threads failed", errors.get(0));
        }
    }
}
