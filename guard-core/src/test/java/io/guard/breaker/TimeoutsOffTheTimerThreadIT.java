package io.guard.breaker;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static io.guard.breaker.CircuitBreakerDecorators.decorateCompletionStage;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry's own timer only keeps time: a timeout's fallback, and whatever the caller chained, run elsewhere,
 * so one breaker's blocking fallback cannot delay another breaker's timeout (issue #24 item 2). Real time, as the
 * point is which thread runs what; the test asserts the order of events, never a speed.
 */
class TimeoutsOffTheTimerThreadIT {

    @Test
    void aFallbackThatBlocksDoesNotDelayAnotherBreakersTimeout() throws Exception {
        try (CircuitBreakerRegistry registry = CircuitBreakerRegistry.ofDefaults()) {
            CircuitBreaker a = registry.circuitBreaker("a", CircuitBreakerConfig.builder()
                    .timeout(Duration.ofMillis(50)).build());
            CircuitBreaker b = registry.circuitBreaker("b", CircuitBreakerConfig.builder()
                    .timeout(Duration.ofMillis(200)).build());
            CountDownLatch bTimedOut = new CountDownLatch(1);
            AtomicReference<String> bThread = new AtomicReference<>();

            CompletableFuture<Boolean> aFallback = decorateCompletionStage(a, CompletableFuture<String>::new).get()
                    .toCompletableFuture()
                    .handle((value, error) -> {
                        try { // a fallback that blocks for up to 1.5 s, unless B's timeout comes first
                            return bTimedOut.await(1500, TimeUnit.MILLISECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return false;
                        }
                    });
            CompletableFuture<String> bAnswer = decorateCompletionStage(b, CompletableFuture<String>::new).get()
                    .toCompletableFuture();
            bAnswer.whenComplete((value, error) -> {
                bThread.set(Thread.currentThread().getName());
                bTimedOut.countDown();
            });

            assertThat(aFallback.get(30, TimeUnit.SECONDS))
                    .as("B timed out while A's fallback was still blocking").isTrue();
            assertThat(bAnswer).isCompletedExceptionally();
            assertThat(bAnswer.handle((v, e) -> e).join()).isInstanceOf(TimeoutException.class);
            assertThat(bThread.get()).startsWith("guard-breaker-callback-");
        }
    }

    @Test
    void timedTransitionsRunOnACallbackThreadToo() throws Exception {
        try (CircuitBreakerRegistry registry = CircuitBreakerRegistry.ofDefaults()) {
            CircuitBreaker breaker = registry.circuitBreaker("timed", CircuitBreakerConfig.builder()
                    .waitDurationInOpenState(Duration.ofMillis(1))
                    .automaticTransitionFromOpenToHalfOpenEnabled(true).build());
            AtomicReference<String> thread = new AtomicReference<>();
            CountDownLatch halfOpen = new CountDownLatch(1);
            breaker.addListener(event -> {
                if ("HALF_OPEN".equals(event.details().get("to"))) {
                    thread.set(Thread.currentThread().getName());
                    halfOpen.countDown();
                }
            });
            breaker.transitionToOpenState();
            assertThat(halfOpen.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(thread.get()).startsWith("guard-breaker-callback-");
        }
    }
}
