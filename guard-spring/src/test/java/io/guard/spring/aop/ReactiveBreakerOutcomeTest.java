package io.guard.spring.aop;

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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a Flux that is cancelled tells the breaker: a success once it emitted, nothing before. */
class ReactiveBreakerOutcomeTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withUserConfiguration(Services.class)
            .withPropertyValues(
                    "guard.circuit-breaker.instances.feed.sliding-window-size=10",
                    "guard.circuit-breaker.instances.feed.minimum-number-of-calls=2",
                    "guard.circuit-breaker.instances.feed.failure-rate-threshold=50",
                    "guard.circuit-breaker.instances.feed.permitted-number-of-calls-in-half-open-state=2");

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        RateLimiter countingRateLimiter() {
            return new CountingRateLimiter();
        }

        @Bean
        Feed feed() {
            return new Feed();
        }
    }

    static class Feed {
        @CircuitBreaker(name = "feed")
        public Flux<Integer> items() {
            return Flux.range(0, 100);
        }

        @CircuitBreaker(name = "feed")
        public Flux<Integer> broken() {
            return Flux.error(new IllegalStateException("down"));
        }

        @CircuitBreaker(name = "feed")
        public Flux<Integer> silent() {
            return Flux.never();
        }
    }

    @Test
    void aFluxTakenPartlyIsASuccess() {
        runner.run(context -> {
            Feed feed = context.getBean(Feed.class);
            var breaker = context.getBean(CircuitBreakerRegistry.class).circuitBreaker("feed");
            for (int i = 0; i < 8; i++) {
                assertThat(feed.items().take(3).collectList().block()).containsExactly(0, 1, 2);
            }
            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(() -> feed.broken().blockLast()).hasMessage("down");
            }
            assertThat(breaker.snapshot().calls()).isEqualTo(10);
            assertThat(breaker.snapshot().failedCalls()).isEqualTo(2);
            assertThat(breaker.state()).isEqualTo(State.CLOSED);
        });
    }

    @Test
    void trialCallsConsumedWithNextCloseAHalfOpenBreaker() {
        runner.run(context -> {
            Feed feed = context.getBean(Feed.class);
            var breaker = context.getBean(CircuitBreakerRegistry.class).circuitBreaker("feed");
            breaker.transitionToOpenState();
            breaker.transitionToHalfOpenState();
            assertThat(feed.items().next().block()).isZero();
            assertThat(feed.items().next().block()).isZero();
            assertThat(breaker.state()).isEqualTo(State.CLOSED);
        });
    }

    @Test
    void aFluxCancelledBeforeItEmittedGivesItsTrialBack() {
        runner.run(context -> {
            Feed feed = context.getBean(Feed.class);
            var breaker = context.getBean(CircuitBreakerRegistry.class).circuitBreaker("feed");
            breaker.transitionToOpenState();
            breaker.transitionToHalfOpenState();
            Disposable first = feed.silent().subscribe();
            Disposable second = feed.silent().subscribe();
            first.dispose();
            second.dispose();
            assertThat(breaker.snapshot().calls()).isZero();
            assertThat(feed.items().next().block()).isZero();
            assertThat(feed.items().next().block()).isZero();
            assertThat(breaker.state()).isEqualTo(State.CLOSED);
        });
    }
}
