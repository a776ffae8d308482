package io.guard.benchmarks.breaker;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.time.ManualClock;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * What a breaker's look for hung calls costs when it runs: once per tracking generation (2^24 ns for the backend
 * breaker's 250 ms slow-call threshold), the first call of the generation pays it. Here every call is the first of
 * its generation (a manual clock moves one generation before each), after 64 threads have each made a call, so
 * the breaker counts in 64 per-thread cells as under a busy servlet pool. CPU time of the calling thread per call,
 * which includes moving the manual clock.
 *
 * <p>Run: {@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.breaker.HungCallCheckCost 200000}
 * (calls per round; three rounds after a warm-up round).
 */
public final class HungCallCheckCost {

    private HungCallCheckCost() {
    }

    public static void main(String[] args) throws InterruptedException {
        long calls = args.length > 0 ? Long.parseLong(args[0]) : 200_000;
        ManualClock clock = new ManualClock();
        try (CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder().clock(clock).scheduler(clock).build()) {
            CircuitBreaker breaker = registry.circuitBreaker("backend",
                    FailoverRateLimiter.recommendedBreakerConfig(Duration.ofMillis(250)));
            CountDownLatch cells = new CountDownLatch(64);
            for (int t = 0; t < 64; t++) {
                new Thread(() -> {
                    breaker.tryAcquire().onSuccess();
                    cells.countDown();
                }).start();
            }
            cells.await();
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            Duration generation = Duration.ofNanos(1L << 24);
            for (int round = 0; round < 4; round++) {
                long before = mx.getCurrentThreadCpuTime();
                for (long i = 0; i < calls; i++) {
                    clock.advance(generation);
                    breaker.tryAcquire().onSuccess();
                }
                long cpu = mx.getCurrentThreadCpuTime() - before;
                if (round > 0) {
                    System.out.printf(Locale.ROOT, "round %d: %.0f ns CPU per call, each the first of its generation%n",
                            round, cpu / (double) calls);
                }
            }
        }
    }
}
