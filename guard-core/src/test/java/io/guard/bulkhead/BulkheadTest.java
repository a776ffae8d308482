package io.guard.bulkhead;

import io.guard.event.GuardEvent;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BulkheadTest {

    private final ManualClock clock = new ManualClock();

    @Test
    void refusesTheCallBeyondTheLimitAndPublishesIt() {
        Bulkhead b = new Bulkhead("inventory", 2, clock, 10);
        List<GuardEvent> heard = new ArrayList<>();
        b.addListener(heard::add);
        Bulkhead.Permit first = b.tryAcquire();
        assertThat(first).isNotNull();
        assertThat(b.tryAcquire()).isNotNull();
        assertThat(b.tryAcquire()).isNull();
        assertThatThrownBy(b::acquire).isInstanceOf(BulkheadFullException.class)
                .hasMessage("Bulkhead 'inventory' is full: 2 concurrent calls are running");
        assertThat(b.refusedCalls()).isEqualTo(2);
        assertThat(heard).hasSize(2).allSatisfy(e -> {
            assertThat(e.source()).isEqualTo(GuardEvent.Source.BULKHEAD);
            assertThat(e.type()).isEqualTo(GuardEvent.Type.NOT_PERMITTED);
            assertThat(e.time()).isEqualTo(clock.instant());
        });
        assertThat(b.recentEvents()).hasSize(2);
        first.release();
        assertThat(b.availablePermits()).isEqualTo(1);
        assertThat(b.tryAcquire()).isNotNull();
    }

    @Test
    void decoratorsReleaseWhateverTheCallDoes() {
        Bulkhead b = new Bulkhead("x", 1, clock, 10);
        assertThatThrownBy(() -> b.executeSupplier(() -> {
            throw new IllegalStateException("boom");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(b.concurrentCalls()).isZero();
        CompletableFuture<String> work = new CompletableFuture<>();
        b.decorateCompletionStage(() -> work).get();
        assertThat(b.concurrentCalls()).isEqualTo(1);
        assertThat(b.decorateCompletionStage(() -> CompletableFuture.completedFuture("y")).get()
                .toCompletableFuture()).isCompletedExceptionally();
        work.complete("done");
        assertThat(b.concurrentCalls()).isZero();
    }

    @Test
    void aPermitGivesBackOnceWhateverItIsToldAfterwards() {
        Bulkhead b = new Bulkhead("x", 2, clock, 10);
        Bulkhead.Permit permit = b.tryAcquire();
        Bulkhead.Permit other = b.tryAcquire();
        permit.onDropped();
        permit.onSuccess();
        permit.release();
        assertThat(b.concurrentCalls()).isEqualTo(1);
        assertThat(b.tryAcquire()).isNotNull();
        assertThat(b.tryAcquire()).isNull();
        other.release();
    }

    @Test
    void neverMoreThanTheLimitRunAtOnceUnderContention() throws Exception {
        Bulkhead b = new Bulkhead("x", 3, clock, 10);
        int threads = 8;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 20_000; i++) {
                        Bulkhead.Permit permit = b.tryAcquire();
                        if (permit != null) {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            inside.decrementAndGet();
                            permit.onSuccess();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(most.get()).isBetween(1, 3);
        assertThat(b.concurrentCalls()).isZero();
        assertThat(b.permittedCalls() + b.refusedCalls()).isEqualTo(threads * 20_000L);
    }

    @Test
    void theRegistryAppliesInstanceLimitsAndBoundsItsSize() {
        BulkheadRegistry r = new BulkheadRegistry(5, Map.of("slow", 1), 2, clock, 10);
        assertThat(r.bulkhead("slow").maxConcurrentCalls()).isEqualTo(1);
        assertThat(r.bulkhead("other", 7).maxConcurrentCalls()).isEqualTo(7);
        assertThat(r.bulkhead("other")).isSameAs(r.find("other").orElseThrow());
        assertThatThrownBy(() -> r.bulkhead("third")).hasMessageContaining("max-bulkheads=2");
        assertThatThrownBy(() -> new BulkheadRegistry(5, Map.of("bad", 0), 2, clock, 10))
                .hasMessageContaining("bulkhead 'bad': max-concurrent-calls must be at least 1 but was 0");
    }
}
