package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.event.GuardEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class GuardEventStreamTest {

    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
    private final GuardEventStream stream = new GuardEventStream(new GuardRegistries(breakers, null), 16, 2);

    @AfterEach
    void close() {
        stream.destroy();
        breakers.close();
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void aClientThatStopsReadingNeitherBlocksTheBreakerNorGrowsMemory() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch firstWrite = new CountDownLatch(1);
        List<GuardEvent> written = new CopyOnWriteArrayList<>();
        EventSubscription slow = stream.subscribe(EventFilter.ALL, event -> {
            written.add(event);
            firstWrite.countDown();
            stuck.await();
        }, () -> { }).orElseThrow();
        CircuitBreaker breaker = breakers.circuitBreaker("busy");

        breaker.transitionToForcedOpenState();
        assertThat(firstWrite.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 500; i++) {
            breaker.transitionToClosedState();
            breaker.transitionToForcedOpenState();
        }

        // 1000 events while the writer is stuck on the first: 16 wait in the queue, the rest are dropped.
        assertThat(slow.dropped()).isEqualTo(1000 - 16);
        stuck.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (written.size() < 17 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(written).hasSize(17);
    }

    @Test
    void refusesClientsBeyondTheLimitAndEndsEveryStreamOnStop() {
        AtomicInteger closed = new AtomicInteger();
        assertThat(stream.subscribe(EventFilter.ALL, e -> { }, closed::incrementAndGet)).isPresent();
        assertThat(stream.subscribe(EventFilter.ALL, e -> { }, closed::incrementAndGet)).isPresent();

        assertThat(stream.subscribe(EventFilter.ALL, e -> { }, closed::incrementAndGet)).isEmpty();

        stream.stop();
        assertThat(closed).hasValue(2);
        assertThat(stream.subscribers()).isZero();
        assertThat(stream.subscribe(EventFilter.ALL, e -> { }, closed::incrementAndGet)).isPresent();
    }

    @Test
    void followsBreakersCreatedAfterTheFirstClient() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        stream.subscribe(EventFilter.of("late", "STATE_TRANSITION"), e -> received.countDown(), () -> { });

        breakers.circuitBreaker("late").transitionToDisabledState();

        assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();
    }
}
