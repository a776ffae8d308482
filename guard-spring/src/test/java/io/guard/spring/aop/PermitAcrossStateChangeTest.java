package io.guard.spring.aop;

import io.guard.breaker.CallNotPermittedException;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.ratelimit.RateLimiter;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.CountingRateLimiter;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A call admitted in one state and cancelled after the breaker moved on gives its permission back to the state that
 * admitted it: a call let in while CLOSED can never hand a HALF_OPEN breaker an extra trial.
 */
class PermitAcrossStateChangeTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withUserConfiguration(Services.class)
            .withPropertyValues("guard.circuit-breaker.instances.probe.permitted-number-of-calls-in-half-open-state=1");

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        RateLimiter countingRateLimiter() {
            return new CountingRateLimiter();
        }

        @Bean
        Probe probe() {
            return new Probe();
        }
    }

    static class Probe {
        private final Deque<CompletableFuture<String>> pending = new ArrayDeque<>();

        public void cancelOldest() {
            pending.getFirst().cancel(false);
        }

        @CircuitBreaker(name = "probe")
        public Flux<String> silent() {
            return Flux.never();
        }

        @CircuitBreaker(name = "probe")
        public Mono<String> ping() {
            return Mono.just("pong");
        }

        @CircuitBreaker(name = "probe")
        public CompletableFuture<String> later() {
            CompletableFuture<String> future = new CompletableFuture<>();
            pending.add(future);
            return future;
        }
    }

    @Test
    void aSubscriptionCancelledAfterTheBreakerMovedToHalfOpenAddsNoTrial() {
        runner.run(context -> {
            Probe probe = context.getBean(Probe.class);
            var breaker = context.getBean(CircuitBreakerRegistry.class).circuitBreaker("probe");
            Disposable admittedWhileClosed = probe.silent().subscribe();
            breaker.transitionToOpenState();
            breaker.transitionToHalfOpenState();
            Disposable trial = probe.silent().subscribe();

            admittedWhileClosed.dispose();

            assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
            assertThatThrownBy(() -> probe.ping().block()).isInstanceOf(CallNotPermittedException.class);
            trial.dispose();
        });
    }

    @Test
    void aStageCancelledAfterTheBreakerMovedToHalfOpenAddsNoTrial() {
        runner.run(context -> {
            Probe probe = context.getBean(Probe.class);
            var breaker = context.getBean(CircuitBreakerRegistry.class).circuitBreaker("probe");
            probe.later();
            breaker.transitionToOpenState();
            breaker.transitionToHalfOpenState();
            probe.later();

            probe.cancelOldest();

            assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
            assertThatThrownBy(() -> probe.ping().block()).isInstanceOf(CallNotPermittedException.class);
        });
    }
}
