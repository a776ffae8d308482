package io.guard.benchmarks.aspect;

import io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
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

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the aspects add to one call, in one Spring context: a plain bean, Guard's {@code @CircuitBreaker}, Guard's
 * {@code @RateLimit} (in-process backend, a limit that never refuses), both with a SpEL key, and Resilience4j's
 * {@code @CircuitBreaker} aspect (resilience4j-spring-boot4 2.4.0). Both breakers use their default configuration
 * (COUNT_BASED window of 100 calls), which the libraries share. Subtract {@code plain} to get the overhead.
 *
 * <p>Run: {@code java -jar guard-benchmarks/target/benchmarks.jar 'AspectOverhead' -f 1 -wi 3 -w 2s -i 5 -r 2s -t 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AspectOverheadBenchmark {

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({AopAutoConfiguration.class, GuardAutoConfiguration.class,
            CircuitBreakerAutoConfiguration.class})
    static class Beans {
        @Bean
        AspectServices.Plain plain() {
            return new AspectServices.Plain();
        }

        @Bean
        AspectServices.Guarded guarded() {
            return new AspectServices.Guarded();
        }

        @Bean
        AspectServices.Resilience4j resilience4j() {
            return new AspectServices.Resilience4j();
        }
    }

    private AnnotationConfigApplicationContext context;
    private AspectServices.Plain plain;
    private AspectServices.Guarded guarded;
    private AspectServices.Resilience4j resilience4j;
    private long counter;

    @Setup
    public void setUp() {
        context = new AnnotationConfigApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("benchmark",
                Map.of("guard.rate-limit.backend", "local")));
        context.register(Beans.class);
        context.refresh();
        plain = context.getBean(AspectServices.Plain.class);
        guarded = context.getBean(AspectServices.Guarded.class);
        resilience4j = context.getBean(AspectServices.Resilience4j.class);
    }

    @TearDown
    public void tearDown() {
        context.close();
    }

    @Benchmark
    public long plain() {
        return plain.call(counter++);
    }

    @Benchmark
    public long guardCircuitBreaker() {
        return guarded.breaker(counter++);
    }

    @Benchmark
    public long guardRateLimit() {
        return guarded.rateLimit(counter++);
    }

    @Benchmark
    public long guardRateLimitWithKeyAndBreaker() {
        return guarded.both("user-42", counter++);
    }

    @Benchmark
    public long resilience4jCircuitBreaker() {
        return resilience4j.breaker(counter++);
    }
}
