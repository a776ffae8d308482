package io.guard.spring.aop;

import io.guard.breaker.CallNotPermittedException;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.ratelimit.RateLimiter;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.InvalidPermitsException;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.CountingRateLimiter;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CircuitBreakerAspectTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withUserConfiguration(Services.class)
            .withPropertyValues(
                    "guard.circuit-breaker.defaults.sliding-window-size=4",
                    "guard.circuit-breaker.defaults.minimum-number-of-calls=4",
                    "guard.circuit-breaker.defaults.failure-rate-threshold=50",
                    "guard.circuit-breaker.defaults.wait-duration-in-open-state=30s",
                    "guard.circuit-breaker.instances.ignoring.ignore-exceptions=java.lang.IllegalArgumentException");

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        RateLimiter countingRateLimiter() {
            return new CountingRateLimiter();
        }

        @Bean
        Inventory inventory() {
            return new Inventory();
        }
    }

    static class Inventory {
        private final Map<String, Throwable> failures = new java.util.concurrent.ConcurrentHashMap<>();

        public void failWith(String sku, Throwable failure) {
            failures.put(sku, failure);
        }

        @CircuitBreaker(name = "stock", fallbackMethod = "stockFallback")
        public String stock(String sku) throws Throwable {
            Throwable failure = failures.get(sku);
            if (failure != null) {
                throw failure;
            }
            return "in stock: " + sku;
        }

        @SuppressWarnings("unused")
        private String stockFallback(String sku, IOException e) {
            return "io fallback: " + e.getClass().getSimpleName();
        }

        @SuppressWarnings("unused")
        private String stockFallback(String sku, FileNotFoundException e) {
            return "file fallback";
        }

        @SuppressWarnings("unused")
        private String stockFallback(CallNotPermittedException e) {
            return "open fallback: " + e.breakerName();
        }

        @CircuitBreaker(name = "ignoring", fallbackMethod = "anything")
        public String ignoring(RuntimeException failure) {
            throw failure;
        }

        @SuppressWarnings("unused")
        private String anything(RuntimeException failure, Throwable e) {
            return "fallback";
        }

        @CircuitBreaker(name = "status", recordResult = "#result == 'DOWN'")
        public String status(String value) {
            return value;
        }

        @CircuitBreaker(name = "bare")
        public String bare() {
            throw new IllegalStateException("down");
        }

        @RateLimit(name = "limited", rate = 1)
        @CircuitBreaker(name = "limited-breaker")
        public String limited() {
            return "ok";
        }

        @RateLimit(name = "reserve", rate = 5, permits = "#quantity")
        @CircuitBreaker(name = "reserve-breaker")
        public String reserve(int quantity) {
            return "reserved " + quantity;
        }

        @CircuitBreaker(name = "stage", fallbackMethod = "stageFallback")
        public CompletableFuture<String> stage(boolean fail) {
            return fail ? CompletableFuture.failedFuture(new IOException("async down"))
                    : CompletableFuture.completedFuture("async ok");
        }

        @SuppressWarnings("unused")
        private CompletableFuture<String> stageFallback(boolean fail, IOException e) {
            return CompletableFuture.completedFuture("async fallback: " + e.getMessage());
        }
    }

    @Test
    void theClosestFallbackAnswersRecordedFailuresAndAnOpenBreaker() {
        runner.run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            CircuitBreakerRegistry registry = context.getBean(CircuitBreakerRegistry.class);
            inventory.failWith("a", new FileNotFoundException());
            inventory.failWith("b", new java.net.SocketException());

            assertThat(inventory.stock("ok")).isEqualTo("in stock: ok");
            assertThat(inventory.stock("a")).isEqualTo("file fallback");
            assertThat(inventory.stock("b")).isEqualTo("io fallback: SocketException");
            assertThat(inventory.stock("a")).isEqualTo("file fallback");

            assertThat(registry.find("stock").orElseThrow().state()).isEqualTo(State.OPEN);
            assertThat(inventory.stock("ok")).isEqualTo("open fallback: stock");
        });
    }

    @Test
    void anErrorNoOverloadAcceptsReachesTheCaller() {
        runner.run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            inventory.failWith("x", new IllegalStateException("boom"));
            assertThatThrownBy(() -> inventory.stock("x")).isInstanceOf(IllegalStateException.class);
            assertThat(context.getBean(CircuitBreakerRegistry.class).find("stock").orElseThrow().snapshot()
                    .failedCalls()).isEqualTo(1);
        });
    }

    @Test
    void ignoredExceptionsSkipTheFallbackAndAreNotCounted() {
        runner.run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            assertThatThrownBy(() -> inventory.ignoring(new IllegalArgumentException("bad input")))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(inventory.ignoring(new IllegalStateException())).isEqualTo("fallback");
            var snapshot = context.getBean(CircuitBreakerRegistry.class).find("ignoring").orElseThrow().snapshot();
            assertThat(snapshot.calls()).isEqualTo(1);
            assertThat(snapshot.failedCalls()).isEqualTo(1);
        });
    }

    @Test
    void recordResultCountsReturnedValuesAsFailures() {
        runner.run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            assertThat(inventory.status("DOWN")).isEqualTo("DOWN");
            assertThat(inventory.status("UP")).isEqualTo("UP");
            var snapshot = context.getBean(CircuitBreakerRegistry.class).find("status").orElseThrow().snapshot();
            assertThat(snapshot.calls()).isEqualTo(2);
            assertThat(snapshot.failedCalls()).isEqualTo(1);
        });
    }

    @Test
    void anOpenBreakerWithoutFallbackThrowsCallNotPermitted() {
        runner.run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            for (int i = 0; i < 4; i++) {
                assertThatThrownBy(inventory::bare).isInstanceOf(IllegalStateException.class);
            }
            assertThatThrownBy(inventory::bare).isInstanceOfSatisfying(CallNotPermittedException.class, e -> {
                assertThat(e.breakerName()).isEqualTo("bare");
                assertThat(e.state()).isEqualTo(State.OPEN);
                assertThat(e.retryAfter()).isPositive();
            });
        });
    }

    @Test
    void aRateLimitRefusalNeverReachesTheBreaker() {
        runner.run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            assertThat(inventory.limited()).isEqualTo("ok");
            for (int i = 0; i < 5; i++) {
                assertThatThrownBy(inventory::limited).isInstanceOf(RateLimitExceededException.class);
            }
            var breaker = context.getBean(CircuitBreakerRegistry.class).find("limited-breaker").orElseThrow();
            assertThat(breaker.snapshot().calls()).isEqualTo(1);
            assertThat(breaker.snapshot().failedCalls()).isZero();
        });
    }

    @Test
    void aRateLimitRefusalInsideTheBreakerReleasesThePermissionWhenTheOrderIsSwapped() {
        runner.withPropertyValues("guard.rate-limit.aspect-order=100", "guard.circuit-breaker.aspect-order=50")
                .run(context -> {
                    Inventory inventory = context.getBean(Inventory.class);
                    inventory.limited();
                    for (int i = 0; i < 5; i++) {
                        assertThatThrownBy(inventory::limited).isInstanceOf(RateLimitExceededException.class);
                    }
                    var breaker = context.getBean(CircuitBreakerRegistry.class).find("limited-breaker")
                            .orElseThrow();
                    assertThat(breaker.snapshot().calls()).isEqualTo(1);
                    assertThat(breaker.state()).isEqualTo(State.CLOSED);
                });
    }

    @Test
    void invalidPermitsInsideTheBreakerAreTheCallersMistakeNotAFailure() {
        runner.withPropertyValues("guard.rate-limit.aspect-order=100", "guard.circuit-breaker.aspect-order=50")
                .run(context -> {
                    Inventory inventory = context.getBean(Inventory.class);
                    assertThat(inventory.reserve(2)).isEqualTo("reserved 2");
                    for (int quantity : new int[]{0, -1, 6, 7, 0}) {
                        assertThatThrownBy(() -> inventory.reserve(quantity))
                                .isInstanceOf(InvalidPermitsException.class);
                    }
                    var breaker = context.getBean(CircuitBreakerRegistry.class).find("reserve-breaker")
                            .orElseThrow();
                    assertThat(breaker.snapshot().failedCalls()).isZero();
                    assertThat(breaker.snapshot().calls()).isEqualTo(1);
                    assertThat(breaker.state()).isEqualTo(State.CLOSED);
                });
    }

    @Test
    void completionStageFailuresAreRecordedWhenTheStageCompletes() {
        runner.run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            assertThat(inventory.stage(false).join()).isEqualTo("async ok");
            assertThat(inventory.stage(true).join()).isEqualTo("async fallback: async down");
            var snapshot = context.getBean(CircuitBreakerRegistry.class).find("stage").orElseThrow().snapshot();
            assertThat(snapshot.calls()).isEqualTo(2);
            assertThat(snapshot.failedCalls()).isEqualTo(1);
        });
    }
}
