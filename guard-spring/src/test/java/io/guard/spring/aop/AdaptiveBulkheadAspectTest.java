package io.guard.spring.aop;

import io.guard.breaker.CircuitBreakerConfig;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.bulkhead.Bulkhead;
import io.guard.bulkhead.BulkheadFullException;
import io.guard.bulkhead.BulkheadRegistry;
import io.guard.ratelimit.RateLimiter;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.CountingRateLimiter;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code max-concurrent-calls: adaptive} on annotated methods: each call's outcome and latency reach the limit, whatever
 * the return type. AIMD on a manual clock makes every step exact: a call slower than its 100 ms timeout, or one the
 * breaker's timeout gave up on, halves the limit; a failure or a cancellation leaves it alone.
 */
class AdaptiveBulkheadAspectTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withUserConfiguration(Services.class)
            .withPropertyValues(
                    "guard.circuit-breaker.defaults.max-concurrent-calls=adaptive",
                    "guard.circuit-breaker.defaults.adaptive-limit.algorithm=aimd",
                    "guard.circuit-breaker.defaults.adaptive-limit.initial-limit=16",
                    "guard.circuit-breaker.defaults.adaptive-limit.backoff-ratio=0.5",
                    "guard.circuit-breaker.defaults.adaptive-limit.timeout=100ms",
                    "guard.circuit-breaker.instances.single.max-concurrent-calls=adaptive",
                    "guard.circuit-breaker.instances.single.adaptive-limit.initial-limit=1",
                    "guard.circuit-breaker.instances.single.adaptive-limit.retry-after=3s");

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        ManualClock clock() {
            return new ManualClock();
        }

        @Bean
        BulkheadRegistry guardBulkheadRegistry(ManualClock clock) {
            return new BulkheadRegistry(1, Map.of(), 10, clock, 10);
        }

        @Bean
        CircuitBreakerRegistry guardCircuitBreakerRegistry(ManualClock clock) {
            return CircuitBreakerRegistry.builder().clock(clock).scheduler(clock)
                    .instances(Map.of("timed", CircuitBreakerConfig.builder().timeout(Duration.ofSeconds(2)).build()))
                    .build();
        }

        @Bean
        RateLimiter countingRateLimiter() {
            return new CountingRateLimiter();
        }

        @Bean
        Downstream downstream(ManualClock clock) {
            return new Downstream(clock);
        }
    }

    static class Downstream {
        private final ManualClock clock;

        Downstream(ManualClock clock) {
            this.clock = clock;
        }

        @CircuitBreaker(name = "blocking")
        public String blocking(long millis) {
            clock.advanceMillis(millis);
            return "ok";
        }

        @CircuitBreaker(name = "failing")
        public String failing(long millis) {
            clock.advanceMillis(millis);
            throw new IllegalStateException("boom");
        }

        @CircuitBreaker(name = "future")
        public CompletableFuture<String> future(CompletableFuture<String> work) {
            return work;
        }

        @CircuitBreaker(name = "mono")
        public Mono<String> mono(long millis) {
            return Mono.fromSupplier(() -> "ok").doOnNext(v -> clock.advanceMillis(millis));
        }

        @CircuitBreaker(name = "flux")
        public Flux<String> flux(long millis) {
            return Flux.just("a", "b").doOnComplete(() -> clock.advanceMillis(millis));
        }

        @CircuitBreaker(name = "timed")
        public CompletableFuture<String> timed() {
            return new CompletableFuture<>();
        }

        @CircuitBreaker(name = "single")
        public CompletableFuture<String> single(CompletableFuture<String> work) {
            return work;
        }
    }

    private static Bulkhead bulkhead(org.springframework.context.ApplicationContext context, String name) {
        return context.getBean(BulkheadRegistry.class).find(name).orElseThrow();
    }

    @Test
    void aSlowBlockingCallLowersTheLimitAndAFastOneDoesNot() {
        runner.run(context -> {
            Downstream downstream = context.getBean(Downstream.class);
            downstream.blocking(10);
            Bulkhead bulkhead = bulkhead(context, "blocking");
            assertThat(bulkhead.algorithm()).isEqualTo("aimd");
            assertThat(bulkhead.maxConcurrentCalls()).isEqualTo(16);
            downstream.blocking(150);
            assertThat(bulkhead.maxConcurrentCalls()).isEqualTo(8);
            assertThat(bulkhead.concurrentCalls()).isZero();
        });
    }

    @Test
    void aFailureGivesThePermitBackWithoutASample() {
        runner.run(context -> {
            Downstream downstream = context.getBean(Downstream.class);
            assertThatThrownBy(() -> downstream.failing(150)).hasMessage("boom");
            Bulkhead bulkhead = bulkhead(context, "failing");
            assertThat(bulkhead.maxConcurrentCalls()).isEqualTo(16);
            assertThat(bulkhead.concurrentCalls()).isZero();
        });
    }

    @Test
    void aFutureIsMeasuredUntilItCompletesAndACancelledOneIsNoSample() {
        runner.run(context -> {
            Downstream downstream = context.getBean(Downstream.class);
            ManualClock clock = context.getBean(ManualClock.class);
            CompletableFuture<String> work = new CompletableFuture<>();
            CompletableFuture<String> answer = downstream.future(work);
            Bulkhead bulkhead = bulkhead(context, "future");
            assertThat(bulkhead.concurrentCalls()).isEqualTo(1);
            clock.advanceMillis(150);
            work.complete("late");
            assertThat(answer.join()).isEqualTo("late");
            assertThat(bulkhead.maxConcurrentCalls()).isEqualTo(8);
            CompletableFuture<String> cancelled = downstream.future(new CompletableFuture<>());
            clock.advanceMillis(150);
            cancelled.cancel(true);
            assertThat(bulkhead.maxConcurrentCalls()).isEqualTo(8);
            assertThat(bulkhead.concurrentCalls()).isZero();
        });
    }

    @Test
    void monoAndFluxAreMeasuredUntilTheyComplete() {
        runner.run(context -> {
            Downstream downstream = context.getBean(Downstream.class);
            assertThat(downstream.mono(150).block()).isEqualTo("ok");
            assertThat(bulkhead(context, "mono").maxConcurrentCalls()).isEqualTo(8);
            assertThat(downstream.flux(150).collectList().block()).containsExactly("a", "b");
            assertThat(bulkhead(context, "flux").maxConcurrentCalls()).isEqualTo(8);
            assertThat(bulkhead(context, "flux").concurrentCalls()).isZero();
        });
    }

    @Test
    void aCallTheBreakersTimeoutGaveUpOnIsADrop() {
        runner.run(context -> {
            CompletableFuture<String> answer = context.getBean(Downstream.class).timed();
            context.getBean(ManualClock.class).advance(Duration.ofSeconds(2));
            assertThat(answer).failsWithin(Duration.ofSeconds(5)).withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(TimeoutException.class);
            Bulkhead bulkhead = bulkhead(context, "timed");
            assertThat(bulkhead.maxConcurrentCalls()).isEqualTo(8);
            assertThat(bulkhead.concurrentCalls()).isZero();
        });
    }

    @Test
    void aRefusalOfTheAdaptiveLimitCarriesItsRetryAfter() {
        runner.run(context -> {
            Downstream downstream = context.getBean(Downstream.class);
            downstream.single(new CompletableFuture<>());
            assertThat(downstream.single(new CompletableFuture<>())).failsWithin(Duration.ofSeconds(5))
                    .withThrowableOfType(ExecutionException.class)
                    .havingCause().isInstanceOfSatisfying(BulkheadFullException.class, e -> {
                        assertThat(e.bulkheadName()).isEqualTo("single");
                        assertThat(e.retryAfterHint()).contains(Duration.ofSeconds(3));
                    });
        });
    }
}
