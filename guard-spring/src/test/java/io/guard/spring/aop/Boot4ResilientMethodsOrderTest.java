package io.guard.spring.aop;

import io.guard.breaker.CallNotPermittedException;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.window.Snapshot;
import io.guard.ratelimit.RateLimiter;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.CountingRateLimiter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.aop.framework.Advised;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.resilience.annotation.ConcurrencyLimit;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Guard's aspects next to Spring Framework 7's {@code @Retryable} and {@code @ConcurrencyLimit}: the order
 * docs/annotations.md states, counted in permits and breaker calls. Boot 4 only (the Boot 3.5 starter excludes it:
 * Spring Framework 6 has neither annotation).
 */
@ExtendWith(OutputCaptureExtension.class)
class Boot4ResilientMethodsOrderTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withUserConfiguration(Services.class);

    @Configuration(proxyBeanMethods = false)
    @EnableResilientMethods
    static class Services {
        @Bean
        RateLimiter countingRateLimiter() {
            return new CountingRateLimiter();
        }

        @Bean
        Quotes quotes() {
            return new Quotes();
        }
    }

    static class Quotes {
        final AtomicInteger attempts = new AtomicInteger();
        final AtomicReference<CountDownLatch> entered = new AtomicReference<>(new CountDownLatch(1));
        final CountDownLatch release = new CountDownLatch(1);

        public int attempts() {
            return attempts.get();
        }

        /** Waits until an attempt of {@link #slow()} has entered the method, then arms the latch again. */
        public boolean awaitEntered() throws InterruptedException {
            boolean entered = this.entered.get().await(10, TimeUnit.SECONDS);
            this.entered.set(new CountDownLatch(1));
            return entered;
        }

        public void release() {
            release.countDown();
        }

        /** Fails every attempt: 1 call + 2 retries, back to back (a combination Guard warns about). */
        @Retryable(maxRetries = 2, delay = 0)
        @RateLimit(name = "quote", rate = 100, interval = "60s")
        @CircuitBreaker(name = "quote")
        public String quote() {
            attempts.incrementAndGet();
            throw new IllegalStateException("downstream down");
        }

        /** The recommended combination: a delay, and Guard's refusals are not retried. */
        @Retryable(maxRetries = 1, delay = 10, multiplier = 2,
                excludes = {RateLimitExceededException.class, CallNotPermittedException.class})
        @RateLimit(name = "price", rate = 100, interval = "60s")
        @CircuitBreaker(name = "price")
        public String price() {
            return "42";
        }

        /** Retries everything, a 429 included: Guard warns. */
        @Retryable(maxRetries = 1, delay = 10)
        @RateLimit(name = "stock", rate = 1, interval = "60s")
        public String stock() {
            return "in stock";
        }

        /** One call at a time, blocking the first attempt until released. */
        @ConcurrencyLimit(1)
        @Retryable(maxRetries = 1, delay = 10)
        @RateLimit(name = "slow", rate = 100, interval = "60s")
        public String slow() throws InterruptedException {
            attempts.incrementAndGet();
            entered.get().countDown();
            assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
            return "slow";
        }
    }

    @Test
    void outsideByDefaultEachRetrySpendsAPermitAndIsABreakerCall(CapturedOutput output) {
        runner.run(context -> {
            Quotes quotes = context.getBean(Quotes.class);
            CountingRateLimiter limiter = context.getBean(CountingRateLimiter.class);
            assertThatThrownBy(quotes::quote).isInstanceOf(IllegalStateException.class);

            assertThat(quotes.attempts()).isEqualTo(3);
            assertThat(limiter.requests()).extracting(CountingRateLimiter.Request::limit)
                    .containsExactly("quote", "quote", "quote");
            Snapshot breaker = context.getBean(CircuitBreakerRegistry.class).find("quote").orElseThrow().snapshot();
            assertThat(breaker.calls()).isEqualTo(3);
            assertThat(breaker.failedCalls()).isEqualTo(3);
            assertThat(chain(quotes)).containsExactly("concurrency-limit", "retry", "rate-limit", "circuit-breaker");
        });
    }

    /** The proxy's advisors, outermost first. */
    private static List<String> chain(Object proxy) {
        return Arrays.stream(((Advised) proxy).getAdvisors()).map(advisor -> {
            if (GuardAdvisors.isRateLimit(advisor)) {
                return "rate-limit";
            }
            if (GuardAdvisors.isCircuitBreaker(advisor)) {
                return "circuit-breaker";
            }
            if (GuardAdvisors.isSpringRetry(advisor)) {
                return "retry";
            }
            return advisor.getAdvice().getClass().getName().contains("ConcurrencyLimit") ? "concurrency-limit"
                    : advisor.getAdvice().getClass().getName();
        }).toList();
    }

    @Test
    void insideOneCallSpendsOnePermitAndIsOneBreakerCallHoweverOftenRetried() {
        runner.withPropertyValues("guard.resilient-methods.position=inside").run(context -> {
            Quotes quotes = context.getBean(Quotes.class);
            CountingRateLimiter limiter = context.getBean(CountingRateLimiter.class);
            assertThatThrownBy(quotes::quote).isInstanceOf(IllegalStateException.class);

            assertThat(quotes.attempts()).isEqualTo(3);
            assertThat(limiter.requests()).extracting(CountingRateLimiter.Request::limit).containsExactly("quote");
            Snapshot breaker = context.getBean(CircuitBreakerRegistry.class).find("quote").orElseThrow().snapshot();
            assertThat(breaker.calls()).isEqualTo(1);
            assertThat(breaker.failedCalls()).isEqualTo(1);
            assertThat(chain(quotes)).containsExactly("rate-limit", "circuit-breaker", "concurrency-limit", "retry");
        });
    }

    @Test
    void theConcurrencyLimitIsOutermostSoAWaitingCallerSpendsNoPermit() {
        runner.run(context -> {
            Quotes quotes = context.getBean(Quotes.class);
            CountingRateLimiter limiter = context.getBean(CountingRateLimiter.class);
            CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> call(quotes));
            assertThat(quotes.awaitEntered()).isTrue();

            Thread[] second = new Thread[1];
            CompletableFuture<String> secondCall = new CompletableFuture<>();
            second[0] = new Thread(() -> secondCall.complete(call(quotes)));
            second[0].start();
            awaitParked(second[0]);
            // The second caller waits in @ConcurrencyLimit, outside the rate limit: no permit spent for it yet.
            assertThat(limiter.requests()).hasSize(1);
            assertThat(quotes.attempts()).isEqualTo(1);

            quotes.release();
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("slow");
            assertThat(secondCall.get(10, TimeUnit.SECONDS)).isEqualTo("slow");
            assertThat(limiter.requests()).extracting(CountingRateLimiter.Request::limit)
                    .containsExactly("slow", "slow");
        });
    }

    @Test
    void warnsOnceNamingTheMethodForCombinationsThatAreSurelyWrong(CapturedOutput output) {
        runner.run(context -> {
            assertThat(output).contains("@Retryable on Quotes.quote() retries without delay around "
                    + "@CircuitBreaker 'quote'");
            assertThat(output).contains("@Retryable on Quotes.quote() retries the refusals of @CircuitBreaker "
                    + "'quote' (CallNotPermittedException)");
            assertThat(output).contains("@Retryable on Quotes.quote() retries the refusals of @RateLimit 'quote'");
            assertThat(output).contains("@Retryable on Quotes.stock() retries the refusals of @RateLimit 'stock'");
            assertThat(output).doesNotContain("Quotes.price()");
            assertThat(output.toString().split("retries without delay around @CircuitBreaker 'quote'", -1))
                    .hasSize(2);
        });
    }

    @Test
    void insideNothingIsRetriedAroundGuardSoNothingIsWarned(CapturedOutput output) {
        runner.withPropertyValues("guard.resilient-methods.position=inside").run(context -> {
            assertThat(output).doesNotContain("@Retryable on");
            Quotes quotes = context.getBean(Quotes.class);
            assertThat(quotes.stock()).isEqualTo("in stock");
            assertThatThrownBy(quotes::stock).isInstanceOf(RateLimitExceededException.class);
            assertThat(context.getBean(CountingRateLimiter.class).requests()).hasSize(2);
        });
    }

    private static String call(Quotes quotes) {
        try {
            return quotes.slow();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Until {@code thread} waits (for the concurrency limit's slot), within a deadline. */
    private static void awaitParked(Thread thread) {
        await("the second caller waiting for the slot").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(5)).until(thread::getState, state -> state == Thread.State.WAITING
                        || state == Thread.State.TIMED_WAITING || state == Thread.State.BLOCKED);
    }
}
