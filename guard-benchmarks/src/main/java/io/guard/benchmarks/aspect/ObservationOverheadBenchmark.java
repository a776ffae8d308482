package io.guard.benchmarks.aspect;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What observations add to a decision through the aspect (in-process backend, a limit that never refuses) and to a
 * breaker call: {@code none} (no ObservationRegistry bean), {@code noop} ({@code ObservationRegistry.NOOP}),
 * {@code off} (a registry with a handler, {@code guard.observations.enabled=false}) and {@code handler} (a registry
 * with one handler that does nothing, so every observation is built, started and stopped).
 *
 * <p>Run: {@code java -jar guard-benchmarks/target/benchmarks.jar 'ObservationOverhead' -f 1 -wi 3 -w 2s -i 5 -r 2s -t 1}.
 * On a machine shared with other work, {@link #main} runs the four variants in one JVM, interleaved round by round,
 * so that they share the same load: {@code java -cp guard-benchmarks/target/benchmarks.jar
 * io.guard.benchmarks.aspect.ObservationOverheadBenchmark 200000 8} (calls per variant per round, rounds).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ObservationOverheadBenchmark {

    @Param({"none", "noop", "off", "handler"})
    public String registry;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({AopAutoConfiguration.class, GuardAutoConfiguration.class})
    static class Beans {
        @Bean
        AspectServices.Guarded guarded() {
            return new AspectServices.Guarded();
        }
    }

    /** Accepts every observation and does nothing with it: the cost of observing, not of exporting. */
    static final class NothingHandler implements ObservationHandler<Observation.Context> {
        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }
    }

    private AnnotationConfigApplicationContext context;
    private AspectServices.Guarded guarded;
    private long counter;

    @Setup
    public void setUp() {
        context = new AnnotationConfigApplicationContext();
        Map<String, Object> properties = new HashMap<>(Map.of("guard.rate-limit.backend", "local"));
        if (registry.equals("off")) {
            properties.put("guard.observations.enabled", "false");
        }
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("benchmark", properties));
        switch (registry) {
            case "noop" -> context.registerBean(ObservationRegistry.class, () -> ObservationRegistry.NOOP);
            case "off", "handler" -> context.registerBean(ObservationRegistry.class, () -> {
                ObservationRegistry observations = ObservationRegistry.create();
                observations.observationConfig().observationHandler(new NothingHandler());
                return observations;
            });
            default -> { }
        }
        context.register(Beans.class);
        context.refresh();
        guarded = context.getBean(AspectServices.Guarded.class);
    }

    @TearDown
    public void tearDown() {
        context.close();
    }

    /** Interleaved rounds: every variant, then again; prints ns per call of each, per round, and the medians. */
    public static void main(String[] args) {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        String[] variants = {"none", "noop", "off", "handler"};
        ObservationOverheadBenchmark[] benchmarks = new ObservationOverheadBenchmark[variants.length];
        for (int i = 0; i < variants.length; i++) {
            benchmarks[i] = new ObservationOverheadBenchmark();
            benchmarks[i].registry = variants[i];
            benchmarks[i].setUp();
        }
        long[][][] nanos = new long[2][variants.length][rounds];
        long sink = 0;
        for (int round = 0; round < rounds; round++) {
            for (int op = 0; op < 2; op++) {
                for (int i = 0; i < variants.length; i++) {
                    long start = System.nanoTime();
                    for (int call = 0; call < calls; call++) {
                        sink += op == 0 ? benchmarks[i].rateLimit() : benchmarks[i].circuitBreaker();
                    }
                    nanos[op][i][round] = (System.nanoTime() - start) / calls;
                }
            }
        }
        String[] ops = {"rateLimit", "circuitBreaker"};
        for (int op = 0; op < 2; op++) {
            for (int i = 0; i < variants.length; i++) {
                long[] sorted = nanos[op][i].clone();
                java.util.Arrays.sort(sorted);
                System.out.printf("%-15s %-8s median %6d ns/call, rounds %s%n", ops[op], variants[i],
                        sorted[sorted.length / 2], java.util.Arrays.toString(nanos[op][i]));
            }
        }
        for (ObservationOverheadBenchmark benchmark : benchmarks) {
            benchmark.tearDown();
        }
        System.out.println(sink == 42 ? "" : "done");
    }

    @Benchmark
    public long rateLimit() {
        return guarded.rateLimit(counter++);
    }

    @Benchmark
    public long circuitBreaker() {
        return guarded.breaker(counter++);
    }
}
