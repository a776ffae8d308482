package io.guard.benchmarks.breaker;

import io.guard.breaker.CircuitBreakerConfig;
import io.guard.breaker.CircuitBreakerDecorators;
import io.guard.breaker.CircuitBreakerRegistry;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The same protected call as {@link BreakerBenchmark}, measured as CPU time per call of each calling thread
 * ({@link ThreadMXBean#getCurrentThreadCpuTime()}) next to wall time. On a machine shared with other busy
 * processes, wall time mostly measures how much CPU the run was given; CPU time does not count time spent
 * descheduled but does count what contention costs (cache-line transfers, lock spinning and parking), so it shows
 * whether two threads slow each other down even when the machine is loaded.
 *
 * <p>Run: {@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.breaker.BreakerCpuTime 6 5000000}
 * (rounds, calls per thread and round; the first round is warm-up and not printed).
 */
public final class BreakerCpuTime {

    private static volatile int counter;

    private BreakerCpuTime() {
    }

    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 5_000_000;
        Supplier<Integer> call = () -> counter;
        try (CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder().defaults(CircuitBreakerConfig.builder()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED).slidingWindowSize(100).build())
                .build()) {
            Supplier<Integer> guard = CircuitBreakerDecorators.decorateSupplier(registry.circuitBreaker("cpu"), call);
            Supplier<Integer> resilience4j = io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateSupplier(
                    io.github.resilience4j.circuitbreaker.CircuitBreaker.of("cpu",
                            io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.custom()
                                    .slidingWindowType(io.github.resilience4j.circuitbreaker.CircuitBreakerConfig
                                            .SlidingWindowType.COUNT_BASED).slidingWindowSize(100).build()), call);
            System.out.println("round contender threads cpu-ns/call(per thread) wall-ns/call(per thread)");
            for (int round = 0; round < rounds; round++) {
                for (int threads = 1; threads <= 2; threads++) {
                    report(round, "guard", threads, measure(guard, threads, calls));
                    report(round, "resilience4j", threads, measure(resilience4j, threads, calls));
                }
            }
        }
    }

    private static void report(int round, String name, int threads, double[][] cpuAndWall) {
        if (round == 0) {
            return;
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%d %s %d", round, name, threads));
        for (double[] measured : cpuAndWall) {
            line.append(String.format(Locale.ROOT, " cpu=%.1f wall=%.1f", measured[0], measured[1]));
        }
        System.out.println(line);
    }

    /** Starts {@code threads} threads on the call at once; returns CPU and wall nanoseconds per call of each. */
    private static double[][] measure(Supplier<Integer> protectedCall, int threads, int calls)
            throws InterruptedException {
        double[][] result = new double[threads][];
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                ThreadMXBean mx = ManagementFactory.getThreadMXBean();
                long cpu = mx.getCurrentThreadCpuTime();
                long wall = System.nanoTime();
                long sink = 0;
                for (int i = 0; i < calls; i++) {
                    sink += protectedCall.get();
                }
                result[index] = new double[] {(mx.getCurrentThreadCpuTime() - cpu) / (double) calls,
                        (System.nanoTime() - wall) / (double) calls};
                counter += (int) (sink & 1);
            });
            started.add(thread);
            thread.start();
        }
        for (Thread thread : started) {
            thread.join();
        }
        return result;
    }
}
