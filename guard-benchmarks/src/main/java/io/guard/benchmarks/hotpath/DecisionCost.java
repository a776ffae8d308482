package io.guard.benchmarks.hotpath;

import com.sun.management.ThreadMXBean;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.actuate.GuardMetrics;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongUnaryOperator;

/**
 * What one {@code @RateLimit} decision costs the application, end to end through the aspect with the Redis backend
 * (Guard's own configuration and meters, Redisson, a {@code redis-server} this program starts on loopback): the Guard methods
 * entered and the bytes allocated per allowed decision and per refused one. Allocations are counted twice: on the
 * calling thread, and on every thread of the JVM (so the client's I/O threads too, and a little background noise).
 * The refused case hammers one key that is over its limit, so most refusals are answered by the remembered-refusal
 * cache and one per second by Redis, which is the abuse case the cache exists for.
 *
 * <p>Allocations are measured first, with no instrumentation; then {@link MethodEntries} instruments Guard's classes
 * and counts the entries of a further run. Run (arguments: decisions per measurement, warm-up decisions):
 * {@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.hotpath.DecisionCost 20000 50000};
 * add {@code -Dverbose=true} to print every method entered with its count per decision.
 */
public final class DecisionCost {

    private DecisionCost() {
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({AopAutoConfiguration.class, GuardAutoConfiguration.class})
    static class Beans {
        @Bean(destroyMethod = "shutdown")
        RedissonClient redisson(org.springframework.core.env.Environment environment) {
            Config config = new Config();
            config.useSingleServer().setAddress(environment.getRequiredProperty("probe.redis-url"));
            return Redisson.create(config);
        }

        @Bean
        Limited limited() {
            return new Limited();
        }
    }

    /** A parameter key, as most limits have; TOKEN_BUCKET keeps the Redis side O(1) whatever the rate. */
    public static class Limited {
        @RateLimit(name = "probe-allowed", key = "#user", rate = 1_000_000_000_000L, interval = "1s",
                algorithm = "TOKEN_BUCKET")
        public long allowed(String user, long x) {
            return x + 1;
        }

        @RateLimit(name = "probe-refused", key = "#user", rate = 1, interval = "1h", algorithm = "TOKEN_BUCKET")
        public long refused(String user, long x) {
            return x + 1;
        }
    }

    public static void main(String[] args) {
        int decisions = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
        try (DedicatedRedis redis = RedisServers.startDedicated();
             AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("probe", Map.of(
                    "probe.redis-url", redis.url(), "guard.rate-limit.backend", "redis")));
            context.register(Beans.class);
            context.refresh();
            // Guard's meters, as an application with Micrometer has them (the backend breaker's too).
            new GuardMetrics(context.getBean(CircuitBreakerRegistry.class), context.getBean(RateLimiterRegistry.class))
                    .bindTo(new SimpleMeterRegistry());
            Limited limited = context.getBean(Limited.class);
            LongUnaryOperator allowed = x -> limited.allowed("user-42", x);
            LongUnaryOperator refused = x -> {
                try {
                    return limited.refused("user-43", x);
                } catch (RuntimeException refusal) {
                    return -x;
                }
            };
            run(allowed, warmUp);
            run(refused, warmUp);
            System.out.printf(Locale.ROOT, "%-8s %12s %12s %12s%n", "decision", "B/calling", "B/all-threads",
                    "entries");
            long[] allowedBytes = bytes(allowed, decisions);
            long[] refusedBytes = bytes(refused, decisions);
            MethodEntries.install();
            run(allowed, 1_000);
            run(refused, 1_000);
            report("allowed", allowedBytes, entries(allowed, decisions), decisions);
            report("refused", refusedBytes, entries(refused, decisions), decisions);
        }
    }

    private static long run(LongUnaryOperator call, int times) {
        long sum = 0;
        for (int i = 0; i < times; i++) {
            sum += call.applyAsLong(i);
        }
        return sum;
    }

    /** Bytes allocated during {@code decisions} calls: on this thread, and on every live thread. */
    private static long[] bytes(LongUnaryOperator call, int decisions) {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] ids = threads.getAllThreadIds();
        long[] before = threads.getThreadAllocatedBytes(ids);
        long callingBefore = threads.getCurrentThreadAllocatedBytes();
        run(call, decisions);
        long calling = threads.getCurrentThreadAllocatedBytes() - callingBefore;
        long[] after = threads.getThreadAllocatedBytes(ids);
        long all = 0;
        for (int i = 0; i < ids.length; i++) {
            if (before[i] >= 0 && after[i] >= 0) {
                all += after[i] - before[i];
            }
        }
        return new long[] {calling, all};
    }

    private static Map<String, Long> entries(LongUnaryOperator call, int decisions) {
        MethodEntries.start();
        run(call, decisions);
        return MethodEntries.stop();
    }

    private static void report(String name, long[] bytes, Map<String, Long> entries, int decisions) {
        long total = entries.values().stream().mapToLong(Long::longValue).sum();
        long files = entries.keySet().stream().map(m -> m.substring(0, m.indexOf("::")).replaceAll("\\$.*", ""))
                .distinct().count();
        System.out.printf(Locale.ROOT, "%-8s %12.0f %12.0f %12.1f   (%d methods in %d files)%n", name,
                bytes[0] / (double) decisions, bytes[1] / (double) decisions, total / (double) decisions,
                entries.size(), files);
        if (Boolean.getBoolean("verbose")) {
            entries.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .forEach(e -> System.out.printf(Locale.ROOT, "    %8.2f %s%n", e.getValue() / (double) decisions,
                            e.getKey()));
        }
    }
}
