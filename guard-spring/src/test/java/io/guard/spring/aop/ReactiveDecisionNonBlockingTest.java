package io.guard.spring.aop;

import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.time.Clock;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code Mono} method's rate-limit decision parks no thread: subscribed on one of Reactor's non-blocking threads
 * (where {@code block()} is refused), the subscription returns while the backend has not answered yet, and the
 * answer (a permit or a refusal) arrives later as a signal. A path that joined the decision on the subscribing
 * thread would never return here; one that called {@code block()} would fail with Reactor's error.
 */
class ReactiveDecisionNonBlockingTest {

    private static final long WAIT_SECONDS = 5;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withUserConfiguration(Services.class);

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        PendingRateLimiter pendingRateLimiter() {
            return new PendingRateLimiter();
        }

        @Bean
        Items items() {
            return new Items();
        }
    }

    static class Items {
        @RateLimit(name = "items", key = "#id", rate = 1, interval = "1m")
        public Mono<String> find(String id) {
            return Mono.just(id);
        }
    }

    @Test
    void theDecisionArrivesAsASignalWhileTheSubscribingThreadIsFree() {
        runner.run(context -> {
            Items items = context.getBean(Items.class);
            PendingRateLimiter limiter = context.getBean(PendingRateLimiter.class);
            Scheduler nonBlocking = Schedulers.newParallel("guard-non-blocking", 1);
            try {
                Outcome first = subscribeOn(nonBlocking, items.find("a"));
                assertThat(limiter.decisionsAsked()).isEqualTo(1);
                assertThat(first.value.get()).as("no value before the backend answered").isNull();
                limiter.answerAll();
                assertThat(first.awaitSignal()).isEqualTo("a");

                Outcome second = subscribeOn(nonBlocking, items.find("a"));
                assertThat(second.error.get()).isNull();
                limiter.answerAll();
                second.awaitSignal();
                assertThat(second.error.get()).isInstanceOf(RateLimitExceededException.class);
            } finally {
                nonBlocking.dispose();
            }
        });
    }

    /** Subscribes on {@code scheduler}'s thread and checks that the subscription returned within the bound. */
    private static Outcome subscribeOn(Scheduler scheduler, Mono<String> mono) throws InterruptedException {
        Outcome outcome = new Outcome();
        CountDownLatch returned = new CountDownLatch(1);
        AtomicReference<Boolean> nonBlockingThread = new AtomicReference<>();
        scheduler.schedule(() -> {
            nonBlockingThread.set(Schedulers.isInNonBlockingThread());
            mono.subscribe(outcome.value::set, outcome.error::set, outcome.signalled::countDown);
            returned.countDown();
        });
        assertThat(returned.await(WAIT_SECONDS, TimeUnit.SECONDS))
                .as("the subscribing thread came back while the decision was pending").isTrue();
        assertThat(nonBlockingThread.get()).as("subscribed on a thread where Reactor refuses block()").isTrue();
        return outcome;
    }

    private static final class Outcome {
        final AtomicReference<String> value = new AtomicReference<>();
        final AtomicReference<Throwable> error = new AtomicReference<>();
        final CountDownLatch signalled = new CountDownLatch(1);

        String awaitSignal() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (value.get() == null && error.get() == null && System.nanoTime() < deadline) {
                signalled.await(10, TimeUnit.MILLISECONDS);
            }
            assertThat(value.get() != null || error.get() != null).as("a signal within %d s", WAIT_SECONDS).isTrue();
            return value.get();
        }
    }

    /** Decides in process, but answers only when the test says so, from the test's thread. */
    static final class PendingRateLimiter implements RateLimiter {

        private final LocalRateLimiter local = new LocalRateLimiter(Clock.systemUTC());
        private final Queue<Runnable> pending = new ConcurrentLinkedQueue<>();
        private final AtomicInteger asked = new AtomicInteger();

        @Override
        public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
            asked.incrementAndGet();
            CompletableFuture<BackendOutcome> later = new CompletableFuture<>();
            local.decide(policy, key, permits).whenComplete((outcome, error) -> pending.add(() -> {
                if (error == null) {
                    later.complete(outcome);
                } else {
                    later.completeExceptionally(error);
                }
            }));
            return later;
        }

        int decisionsAsked() {
            return asked.get();
        }

        void answerAll() {
            List.copyOf(pending).forEach(answer -> {
                pending.remove(answer);
                answer.run();
            });
        }

        @Override
        public String backendName() {
            return "pending";
        }

        @Override
        public void close() {
            local.close();
        }
    }
}
