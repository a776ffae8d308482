package io.guard.benchmarks.reliability;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerConfig;
import io.guard.breaker.CircuitBreakerDecorators;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.ratelimit.redis.RedisRateLimiter;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * A long run at steady load, set up as the starter sets up an application: Redis behind the failover limiter and its
 * breaker, three limits (one per algorithm) over 10,000 users, and a circuit breaker around a downstream that fails
 * 5% of the time. Every 10 seconds it prints heap after GC, live threads, Redis memory, Redis connected clients and
 * keys; at the end it compares the first and the last third of the run, which must be flat.
 *
 * <p>{@code java -Xmx256m -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.reliability.SoakRun
 * [minutes, default 10] [decisions per second, default 1000] [threads, default 8]}
 */
public final class SoakRun {

    private static final int USERS = 10_000;
    private static final String[] LIMITS = {"api", "search", "login"};

    private SoakRun() {
    }

    /** One sample of the process and the server. */
    private record Sample(long second, long decisions, long errors, long heap, int threads, long redisMemory,
                          long clients, long keys) {
    }

    public static void main(String[] args) throws Exception {
        Duration length = Duration.ofMinutes(args.length > 0 ? Long.parseLong(args[0]) : 10);
        int perSecond = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        try (DedicatedRedis server = RedisServers.startDedicated()) {
            RedisEndpoint redis = server.endpoint("");
            Config config = new Config();
            config.setNettyThreads(8);
            config.useSingleServer().setAddress(server.url()).setConnectionMinimumIdleSize(4)
                    .setConnectionPoolSize(16).setTimeout(1_000);
            RedissonClient redisson = Redisson.create(config);
            CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
            FailoverRateLimiter backend = new FailoverRateLimiter(
                    new RedisRateLimiter(redisson, Clock.systemUTC(), "soak:", "soak"),
                    new LocalRateLimiter(Clock.systemUTC()),
                    breakers.circuitBreaker("guard-rate-limit-backend", FailoverRateLimiter.recommendedBreakerConfig()),
                    Clock.systemUTC());
            RateLimiterRegistry limits = new RateLimiterRegistry(backend, Clock.systemUTC(), 100);
            limits.register(RateLimitPolicy.of("api", Algorithm.SLIDING_LOG, 20, Duration.ofSeconds(1)));
            limits.register(RateLimitPolicy.of("search", Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1)));
            limits.register(RateLimitPolicy.of("login", Algorithm.FIXED_WINDOW, 5, Duration.ofSeconds(1)));
            CircuitBreaker inventory = breakers.circuitBreaker("inventory", CircuitBreakerConfig.ofDefaults());
            LongAdder decisions = new LongAdder();
            LongAdder errors = new LongAdder();
            AtomicBoolean running = new AtomicBoolean(true);
            List<Thread> workers = new ArrayList<>();
            long periodNanos = 1_000_000_000L * threads / perSecond;
            for (int t = 0; t < threads; t++) {
                Thread worker = new Thread(() -> {
                    long next = System.nanoTime();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    while (running.get()) {
                        next += periodNanos;
                        try {
                            limits.tryAcquire(LIMITS[random.nextInt(LIMITS.length)],
                                    "user-" + random.nextInt(USERS), 1);
                            CircuitBreakerDecorators.executeSupplier(inventory, () -> {
                                if (random.nextInt(100) < 5) {
                                    throw new IllegalStateException("inventory failed");
                                }
                                return "in stock";
                            });
                        } catch (RuntimeException e) {
                            errors.increment();
                        }
                        decisions.increment();
                        long wait = next - System.nanoTime();
                        if (wait > 0) {
                            LockSupport.parkNanos(wait);
                        }
                    }
                }, "soak-" + t);
                worker.start();
                workers.add(worker);
            }
            System.out.printf(Locale.ROOT, "soak: %s at %,d decisions/s on %d threads, %d users x %d limits, "
                    + "Redis at %s%n", length, perSecond, threads, USERS, LIMITS.length, server.url());
            System.out.println("| t (s) | decisions | errors* | heap after GC | threads "
                    + "| Redis used_memory - client buffers | Redis clients | Redis keys |");
            System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
            List<Sample> samples = new ArrayList<>();
            long start = System.nanoTime();
            for (long second = 10; second <= length.toSeconds(); second += 10) {
                LockSupport.parkNanos(start + second * 1_000_000_000L - System.nanoTime());
                Sample sample = sample(second, decisions.sum(), errors.sum(), redis);
                samples.add(sample);
                System.out.printf(Locale.ROOT, "| %d | %,d | %,d | %,d | %d | %,d | %d | %,d |%n", sample.second(),
                        sample.decisions(), sample.errors(), sample.heap(), sample.threads(), sample.redisMemory(),
                        sample.clients(), sample.keys());
            }
            running.set(false);
            for (Thread worker : workers) {
                worker.join();
            }
            System.out.println("* errors: calls that threw, i.e. the downstream's simulated 5% failures and calls "
                    + "refused by its open breaker; rate-limit refusals are answers, not errors.");
            summarize(samples);
            limits.close();
            backend.close();
            breakers.close();
            redisson.shutdown();
        }
    }

    private static Sample sample(long second, long decisions, long errors, RedisEndpoint redis) {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        long clients = Long.parseLong(Memory.field((String) redis.call("INFO", "clients"), "connected_clients"));
        return new Sample(second, decisions, errors, heap, threads, Memory.used(redis), clients,
                (Long) redis.call("DBSIZE"));
    }

    /** First third against last third: means, and the extremes over the whole run. */
    private static void summarize(List<Sample> samples) {
        int third = Math.max(1, samples.size() / 3);
        List<Sample> first = samples.subList(0, third);
        List<Sample> last = samples.subList(samples.size() - third, samples.size());
        System.out.println("| measure | mean, first third | mean, last third | min | max |");
        System.out.println("|---|---:|---:|---:|---:|");
        row("heap after GC (bytes)", first, last, samples, Sample::heap);
        row("live threads", first, last, samples, s -> s.threads());
        row("Redis used_memory - client buffers (bytes)", first, last, samples, Sample::redisMemory);
        row("Redis connected_clients", first, last, samples, Sample::clients);
        row("Redis keys", first, last, samples, Sample::keys);
        Sample end = samples.get(samples.size() - 1);
        System.out.printf(Locale.ROOT, "%,d decisions in %d s: %,.0f per second%n", end.decisions(), end.second(),
                (double) end.decisions() / end.second());
    }

    private static void row(String name, List<Sample> first, List<Sample> last, List<Sample> all,
                            java.util.function.ToLongFunction<Sample> value) {
        System.out.printf(Locale.ROOT, "| %s | %,.0f | %,.0f | %,d | %,d |%n", name,
                first.stream().mapToLong(value).average().orElse(0), last.stream().mapToLong(value).average().orElse(0),
                all.stream().mapToLong(value).min().orElse(0), all.stream().mapToLong(value).max().orElse(0));
    }
}
