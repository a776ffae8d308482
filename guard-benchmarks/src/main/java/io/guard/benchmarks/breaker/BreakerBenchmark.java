package io.guard.benchmarks.breaker;

import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowSynchronizationStrategy;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import io.guard.breaker.CircuitBreakerConfig;
import io.guard.breaker.CircuitBreakerDecorators;
import io.guard.breaker.CircuitBreakerRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One protected call in CLOSED state through a breaker shared by all benchmark threads: Guard against
 * Resilience4j 2.4.0 with the same configuration (COUNT_BASED window of 100 calls, every other property at its
 * default, which both libraries share). The protected call itself does nearly nothing, so the numbers are the
 * breakers' own cost per call: permission, two clock reads, classification and window update.
 *
 * <p>{@code resilience4j} uses Resilience4j's default window synchronization (SYNCHRONIZED, a lock);
 * {@code resilience4jLockFree} opts into its LOCK_FREE window, for reference.
 *
 * <p>Run: {@code java -jar guard-benchmarks/target/benchmarks.jar 'Breaker' -f 1 -wi 3 -w 2s -i 5 -r 2s -t 2}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BreakerBenchmark {

    private CircuitBreakerRegistry guardRegistry;
    private Supplier<Integer> guard;
    private Supplier<Integer> resilience4j;
    private Supplier<Integer> resilience4jLockFree;
    private int counter;

    @Setup
    public void setUp() {
        Supplier<Integer> call = () -> counter;
        guardRegistry = CircuitBreakerRegistry.builder().defaults(CircuitBreakerConfig.builder()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(100).build()).build();
        guard = CircuitBreakerDecorators.decorateSupplier(guardRegistry.circuitBreaker("bench"), call);

        io.github.resilience4j.circuitbreaker.CircuitBreaker r4j = io.github.resilience4j.circuitbreaker.CircuitBreaker
                .of("bench", io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.custom()
                        .slidingWindowType(SlidingWindowType.COUNT_BASED).slidingWindowSize(100).build());
        resilience4j = io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateSupplier(r4j, call);

        io.github.resilience4j.circuitbreaker.CircuitBreaker r4jLockFree = io.github.resilience4j.circuitbreaker
                .CircuitBreaker.of("bench-lock-free", io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.custom()
                        .slidingWindowType(SlidingWindowType.COUNT_BASED).slidingWindowSize(100)
                        .slidingWindowSynchronizationStrategy(SlidingWindowSynchronizationStrategy.LOCK_FREE).build());
        resilience4jLockFree = io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateSupplier(r4jLockFree, call);
    }

    @TearDown
    public void tearDown() {
        guardRegistry.close();
    }

    @Benchmark
    public Integer guard() {
        return guard.get();
    }

    @Benchmark
    public Integer resilience4j() {
        return resilience4j.get();
    }

    @Benchmark
    public Integer resilience4jLockFree() {
        return resilience4jLockFree.get();
    }
}
