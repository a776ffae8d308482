package io.guard.spring.aop;

import io.guard.breaker.CircuitBreakerRegistry;
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
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code maxConcurrentCalls} (a bulkhead next to the breaker) and the breaker {@code timeout} for async calls. */
class BulkheadAndTimeoutAspectTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withUserConfiguration(Services.class)
            .withPropertyValues(
                    "guard.circuit-breaker.instances.capped.max-concurrent-calls=2");

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        ManualClock clock() {
            return new ManualClock();
        }

        @Bean
        CircuitBreakerRegistry guardCircuitBreakerRegistry(ManualClock clock,
                                                           io.guard.spring.autoconfigure.GuardProperties properties) {
            // The auto-configured registry on a manual clock, so the test moves the timeout's time by hand.
            return CircuitBreakerRegistry.builder().clock(clock).scheduler(clock)
                    .instances(java.util.Map.of(
                            "timed", io.guard.breaker.CircuitBreakerConfig.builder().timeout(Duration.ofSeconds(2)).build(),
                            "timed-mono", io.guard.breaker.CircuitBreakerConfig.builder().timeout(Duration.ofSeconds(2)).build()))
                    .build();
        }

        @Bean
        RateLimiter countingRateLimiter() {
            return new CountingRateLimiter();
        }

        @Bean
        Remote remote() {
            return new Remote();
        }
    }

    static class Remote {
        private final AtomicReference<CompletableFuture<String>> lastWork = new AtomicReference<>();

        public CompletableFuture<String> lastWork() {
            return lastWork.get();
        }

        @CircuitBreaker(name = "limited", maxConcurrentCalls = 1, fallbackMethod = "busy")
        public CompletableFuture<String> limited(CompletableFuture<String> work) {
            return work;
        }

        @SuppressWarnings("unused")
        private CompletableFuture<String> busy(CompletableFuture<String> work, BulkheadFullException e) {
            return CompletableFuture.completedFuture("busy: " + e.bulkheadName());
        }

        @CircuitBreaker(name = "capped")
        public CompletableFuture<String> capped(CompletableFuture<String> work) {
            return work;
        }

        @CircuitBreaker(name = "timed", fallbackMethod = "late")
        public CompletableFuture<String> timed() {
            CompletableFuture<String> work = new CompletableFuture<>();
            lastWork.set(work);
            return work;
        }

        @SuppressWarnings("unused")
        private CompletableFuture<String> late(TimeoutException e) {
            return CompletableFuture.completedFuture("late");
        }

        @CircuitBreaker(name = "timed-mono")
        public Mono<String> timedMono() {
            return Mono.never();
        }
    }

    @Test
    void theNewBreakerPropertiesReachTheCoreConfiguration() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
                .withBean(RateLimiter.class, CountingRateLimiter::new)
                .withPropertyValues("guard.circuit-breaker.defaults.timeout=3s",
                        "guard.circuit-breaker.defaults.randomized-wait-factor=0.25",
                        "guard.circuit-breaker.defaults.writable-stack-trace-enabled=true",
                        "guard.circuit-breaker.instances.payment.initial-state=FORCED_OPEN",
                        "guard.circuit-breaker.instances.payment.transition-to-state-after-wait-duration=CLOSED")
                .run(context -> {
                    var registry = context.getBean(CircuitBreakerRegistry.class);
                    var payment = registry.configFor("payment");
                    assertThat(payment.timeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(payment.randomizedWaitFactor()).isEqualTo(0.25);
                    assertThat(payment.writableStackTraceEnabled()).isTrue();
                    assertThat(payment.initialState()).isEqualTo(io.guard.breaker.State.FORCED_OPEN);
                    assertThat(payment.transitionToStateAfterWaitDuration()).isEqualTo(io.guard.breaker.State.CLOSED);
                    assertThat(registry.circuitBreaker("payment").state()).isEqualTo(io.guard.breaker.State.FORCED_OPEN);
                });
    }

    @Test
    void aFullBulkheadGoesToTheFallbackAndAFreedPermitAdmitsAgain() {
        runner.run(context -> {
            Remote remote = context.getBean(Remote.class);
            CompletableFuture<String> first = new CompletableFuture<>();
            CompletableFuture<?> running = remote.limited(first);
            assertThat(remote.limited(new CompletableFuture<>()).join()).isEqualTo("busy: limited");
            first.complete("done");
            assertThat(running.join()).isEqualTo("done");
            assertThat(remote.limited(CompletableFuture.completedFuture("again")).join()).isEqualTo("again");
            assertThat(context.getBean(BulkheadRegistry.class).find("limited").orElseThrow().refusedCalls())
                    .isEqualTo(1);
        });
    }

    @Test
    void cancellingTheAnswerCancelsTheMethodsFutureAndGivesTheBulkheadPermitBack() {
        runner.run(context -> {
            Remote remote = context.getBean(Remote.class);
            CompletableFuture<String> work = new CompletableFuture<>();
            CompletableFuture<?> answer = remote.limited(work);
            var bulkhead = context.getBean(BulkheadRegistry.class).find("limited").orElseThrow();
            assertThat(bulkhead.concurrentCalls()).isEqualTo(1);
            answer.cancel(true);
            assertThat(work).as("the method's own future").isCancelled();
            assertThat(bulkhead.concurrentCalls()).isZero();
            assertThat(remote.limited(CompletableFuture.completedFuture("again")).join()).isEqualTo("again");
            var breaker = context.getBean(CircuitBreakerRegistry.class).find("limited").orElseThrow();
            assertThat(breaker.snapshot().calls()).as("a cancelled call is no outcome").isEqualTo(1);
        });
    }

    @Test
    void whileTheBreakerIsOpenRefusedCallsAreNotCountedAsBulkheadPermitted() {
        runner.run(context -> {
            Remote remote = context.getBean(Remote.class);
            assertThat(remote.limited(CompletableFuture.completedFuture("first")).join()).isEqualTo("first");
            var bulkhead = context.getBean(BulkheadRegistry.class).find("limited").orElseThrow();
            assertThat(bulkhead.permittedCalls()).isEqualTo(1);
            context.getBean(CircuitBreakerRegistry.class).find("limited").orElseThrow().transitionToOpenState();
            for (int i = 0; i < 3; i++) {
                assertThat(remote.limited(CompletableFuture.completedFuture("refused")))
                        .failsWithin(Duration.ofSeconds(5))
                        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                        .withCauseInstanceOf(io.guard.breaker.CallNotPermittedException.class);
            }
            assertThat(bulkhead.permittedCalls()).isEqualTo(1);
            assertThat(bulkhead.refusedCalls()).isZero();
            assertThat(bulkhead.concurrentCalls()).isZero();
        });
    }

    @Test
    void thePropertyBoundsABreakerWhoseAnnotationSaysNothingAndARefusalWithoutFallbackFails() {
        runner.run(context -> {
            Remote remote = context.getBean(Remote.class);
            remote.capped(new CompletableFuture<>());
            remote.capped(new CompletableFuture<>());
            assertThat(remote.capped(new CompletableFuture<>())).failsWithin(Duration.ofSeconds(5))
                    .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                    .withCauseInstanceOf(BulkheadFullException.class);
        });
    }

    @Test
    void aTimedOutStageIsAnsweredByTheFallbackCancelledAndRecordedAsAFailure() {
        runner.run(context -> {
            Remote remote = context.getBean(Remote.class);
            ManualClock clock = context.getBean(ManualClock.class);
            CompletableFuture<String> answer = remote.timed();
            clock.advance(Duration.ofMillis(1999));
            assertThat(answer).isNotDone();
            clock.advance(Duration.ofMillis(1));
            assertThat(answer.join()).isEqualTo("late");
            assertThat(remote.lastWork()).isCancelled();
            var breaker = context.getBean(CircuitBreakerRegistry.class).find("timed").orElseThrow();
            assertThat(breaker.snapshot().failedCalls()).isEqualTo(1);
            assertThat(breaker.snapshot().calls()).isEqualTo(1);
        });
    }

    @Test
    void aMonoThatNeverAnswersFailsWithATimeoutOnTheBreakersClock() {
        runner.run(context -> {
            Remote remote = context.getBean(Remote.class);
            ManualClock clock = context.getBean(ManualClock.class);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            remote.timedMono().subscribe(v -> { }, failure::set);
            clock.advance(Duration.ofSeconds(2));
            assertThat(failure.get()).isInstanceOf(TimeoutException.class);
            var breaker = context.getBean(CircuitBreakerRegistry.class).find("timed-mono").orElseThrow();
            assertThat(breaker.snapshot().failedCalls()).isEqualTo(1);
        });
    }
}
