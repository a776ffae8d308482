package io.guard.bulkhead;

import io.guard.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConcurrencyLimitTest {

    /** One sample as the limit heard it. */
    record Sample(long startNanos, long rttNanos, int inflight, boolean dropped) {
    }

    /** A limit the test moves by hand, hearing every sample. */
    static final class RecordingLimit implements ConcurrencyLimit {
        final List<Sample> samples = new ArrayList<>();
        int limit;

        RecordingLimit(int limit) {
            this.limit = limit;
        }

        @Override
        public int limit() {
            return limit;
        }

        @Override
        public void onSample(long startNanos, long rttNanos, int inflight, boolean dropped) {
            samples.add(new Sample(startNanos, rttNanos, inflight, dropped));
        }

        @Override
        public String algorithm() {
            return "recording";
        }
    }

    private final ManualClock clock = new ManualClock();
    private final RecordingLimit limit = new RecordingLimit(3);
    private final Bulkhead bulkhead = new Bulkhead("orders", limit, Duration.ofSeconds(2), clock, 10);

    @Test
    void anAnsweredCallIsASampleOfItsLatencyAndOfTheCallsRunningWhenItStarted() {
        long start = clock.nanoTime();
        Bulkhead.Permit first = bulkhead.tryAcquire();
        Bulkhead.Permit second = bulkhead.tryAcquire();
        clock.advanceMillis(40);
        second.onSuccess();
        clock.advanceMillis(60);
        first.onDropped();
        assertThat(limit.samples).containsExactly(
                new Sample(start, Duration.ofMillis(40).toNanos(), 2, false),
                new Sample(start, Duration.ofMillis(100).toNanos(), 1, true));
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void aCallWhoseOutcomeSaysNothingGivesItsPermitBackWithoutASample() {
        bulkhead.tryAcquire().release();
        assertThat(limit.samples).isEmpty();
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void theBoundIsWhereTheLimitStandsAtEachCall() {
        Bulkhead.Permit a = bulkhead.tryAcquire();
        Bulkhead.Permit b = bulkhead.tryAcquire();
        limit.limit = 2;
        assertThat(bulkhead.tryAcquire()).isNull();
        assertThat(bulkhead.maxConcurrentCalls()).isEqualTo(2);
        limit.limit = 5;
        assertThat(bulkhead.tryAcquire()).isNotNull();
        assertThat(bulkhead.algorithm()).isEqualTo("recording");
        a.release();
        b.release();
    }

    @Test
    void aRefusalCarriesTheBoundNowAndTheRetryAfterHint() {
        limit.limit = 1;
        bulkhead.tryAcquire();
        assertThatThrownBy(bulkhead::acquire).isInstanceOfSatisfying(BulkheadFullException.class, e -> {
            assertThat(e.maxConcurrentCalls()).isEqualTo(1);
            assertThat(e.retryAfterHint()).contains(Duration.ofSeconds(2));
        });
        assertThat(Bulkhead.of("fixed", 1).full().retryAfterHint()).isEmpty();
    }

    @Test
    void theStageDecoratorSamplesValuesDropsTimeoutsAndIgnoresOtherFailures() {
        CompletableFuture<String> answered = new CompletableFuture<>();
        CompletableFuture<String> timedOut = new CompletableFuture<>();
        CompletableFuture<String> failed = new CompletableFuture<>();
        bulkhead.decorateCompletionStage(() -> answered).get();
        bulkhead.decorateCompletionStage(() -> timedOut).get();
        bulkhead.decorateCompletionStage(() -> failed).get();
        clock.advanceMillis(10);
        answered.complete("ok");
        timedOut.completeExceptionally(new TimeoutException("slow"));
        failed.completeExceptionally(new IllegalStateException("boom"));
        assertThat(limit.samples).extracting(Sample::dropped).containsExactly(false, true);
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void theRegistryBuildsALimitOnlyForABulkheadItCreates() {
        BulkheadRegistry registry = new BulkheadRegistry(1, java.util.Map.of(), 5, clock, 10);
        Bulkhead created = registry.bulkhead("adaptive", () -> limit, Duration.ofSeconds(1));
        assertThat(registry.bulkhead("adaptive", () -> {
            throw new AssertionError("built twice");
        }, null)).isSameAs(created);
        assertThat(created.retryAfter()).contains(Duration.ofSeconds(1));
        assertThat(registry.bulkhead("fixed", 4).algorithm()).isEqualTo("fixed");
    }

    @Test
    void aFixedLimitIsAtLeastOne() {
        assertThatThrownBy(() -> ConcurrencyLimit.fixed(0))
                .hasMessage("max-concurrent-calls must be at least 1 but was 0");
    }
}
