package io.guard.benchmarks.actuate;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerConfig;
import io.guard.breaker.CircuitBreakerDecorators;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitObserver;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.spring.actuate.GuardMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What Guard's Micrometer meters cost per call: the same protected call and the same rate-limit decision with no
 * meters ({@code none}), with only a listener that does nothing ({@code listener}: the cost of the events the
 * meters are fed from), with {@code guard.*} meters in a {@link SimpleMeterRegistry} ({@code simple}) and in a
 * {@link PrometheusMeterRegistry} ({@code prometheus}, what {@code /actuator/prometheus} reads).
 *
 * <p>The breaker is the one of {@code BreakerBenchmark} (COUNT_BASED window of 100, CLOSED); the limiter decides
 * in process (a rate no call reaches), so the numbers are the instrumentation's cost, not Redis's.
 *
 * <p>Run: {@code java -jar guard-benchmarks/target/benchmarks.jar 'ActuatorOverhead' -f 1 -wi 3 -w 2s -i 5 -r 2s -t 2}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ActuatorOverheadBenchmark {

    @Param({ "none", "listener", "simple", "prometheus" })
    public String meters;

    private CircuitBreakerRegistry breakers;
    private RateLimiterRegistry limiters;
    private Supplier<Integer> protectedCall;
    private int counter;

    @Setup
    public void setUp() {
        breakers = CircuitBreakerRegistry.builder().defaults(CircuitBreakerConfig.builder()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(100).build()).build();
        limiters = new RateLimiterRegistry(new LocalRateLimiter(Clock.systemUTC()), Clock.systemUTC(), 100);
        limiters.register(RateLimitPolicy.of("bench", Algorithm.TOKEN_BUCKET, Long.MAX_VALUE / 4, Duration.ofSeconds(1)));
        CircuitBreaker breaker = breakers.circuitBreaker("bench");
        MeterRegistry registry = switch (meters) {
            case "none" -> null;
            case "listener" -> {
                breaker.addListener(event -> { });
                limiters.addObserver(new RateLimitObserver() {
                    @Override
                    public void onDecision(RateLimitPolicy policy, Decision decision, long latencyNanos) {
                    }

                    @Override
                    public void onBackendError(RateLimitPolicy policy, Throwable error, long latencyNanos) {
                    }
                });
                yield null;
            }
            case "simple" -> new SimpleMeterRegistry();
            case "prometheus" -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            default -> throw new IllegalArgumentException(
                    "meters must be none, listener, simple or prometheus but was " + meters);
        };
        if (registry != null) {
            new GuardMetrics(breakers, limiters).bindTo(registry);
        }
        protectedCall = CircuitBreakerDecorators.decorateSupplier(breaker, () -> counter);
    }

    @TearDown
    public void tearDown() {
        breakers.close();
        limiters.close();
    }

    @Benchmark
    public Integer breakerCall() {
        return protectedCall.get();
    }

    @Benchmark
    public boolean limiterDecision() {
        return limiters.tryAcquire("bench", "key", 1).allowed();
    }
}
