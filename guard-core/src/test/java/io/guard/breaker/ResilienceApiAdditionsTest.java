package io.guard.breaker;

import io.guard.breaker.CircuitBreakerConfig.SlidingWindowType;
import io.guard.time.ManualClock;
import io.guard.time.Scheduler;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.guard.breaker.CircuitBreakerDecorators.executeRunnable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Resilience4j 2.4 API that migrated code and Resilience4j's own tests call (issue #24 item 5). */
class ResilienceApiAdditionsTest {

    private final TestBreakers t = new TestBreakers();

    @Test
    void theWindowInOneStepCapsACountBasedMinimumAtTheSize() {
        CircuitBreakerConfig count = CircuitBreakerConfig.builder()
                .slidingWindow(5, 6, SlidingWindowType.COUNT_BASED).build();
        assertThat(count.slidingWindowSize()).isEqualTo(5);
        assertThat(count.minimumNumberOfCalls()).isEqualTo(5);
        assertThat(count.slidingWindowType()).isEqualTo(SlidingWindowType.COUNT_BASED);
        CircuitBreakerConfig time = CircuitBreakerConfig.builder()
                .slidingWindow(5, 60, SlidingWindowType.TIME_BASED).build();
        assertThat(time.minimumNumberOfCalls()).isEqualTo(60);
        assertThat(time.slidingWindowType()).isEqualTo(SlidingWindowType.TIME_BASED);
        assertThatThrownBy(() -> CircuitBreakerConfig.builder().slidingWindow(0, 1, SlidingWindowType.COUNT_BASED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sliding-window-size");
        assertThatThrownBy(() -> CircuitBreakerConfig.builder().slidingWindow(2, 0, SlidingWindowType.COUNT_BASED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minimum-number-of-calls");
    }

    @Test
    void withIgnorePrecedenceTheCombinedRecordPredicateLeavesOutWhatIsIgnored() {
        CircuitBreakerConfig.Builder builder = CircuitBreakerConfig.builder()
                .recordExceptions(List.of(Exception.class))
                .ignoreExceptions(List.of(RuntimeException.class));
        CircuitBreakerConfig legacy = builder.build();
        CircuitBreakerConfig precedence = builder.enableIgnoreExceptionsPrecedence().build();
        assertThat(legacy.ignoreExceptionsPrecedenceEnabled()).isFalse();
        assertThat(precedence.ignoreExceptionsPrecedenceEnabled()).isTrue();
        assertThat(legacy.effectiveRecordExceptionPredicate()).accepts(new IOException(), new IllegalStateException());
        assertThat(precedence.effectiveRecordExceptionPredicate()).accepts(new IOException())
                .rejects(new IllegalStateException());
        assertThat(precedence.toBuilder().ignoreExceptionsPrecedenceEnabled(false).build()
                .ignoreExceptionsPrecedenceEnabled()).isFalse();
        // The breaker lets ignore win either way, as Resilience4j's state machine does.
        for (CircuitBreakerConfig config : List.of(legacy, precedence)) {
            CircuitBreaker b = t.registry.circuitBreaker("ignore-" + config.ignoreExceptionsPrecedenceEnabled(), config);
            assertThatThrownBy(() -> executeRunnable(b, () -> {
                throw new IllegalStateException("ignored");
            })).isInstanceOf(IllegalStateException.class);
            assertThat(b.snapshot().calls()).isZero();
        }
    }

    @Test
    void aTimestampFunctionMeasuresTheCallsInItsOwnUnit() {
        AtomicLong millis = new AtomicLong(1_000);
        CircuitBreakerConfig config = CircuitBreakerConfig.builder()
                .slowCallDurationThreshold(Duration.ofSeconds(1))
                .currentTimestampFunction(clock -> millis.get(), TimeUnit.MILLISECONDS).build();
        CircuitBreaker b = t.breaker(config);
        executeRunnable(b, () -> millis.addAndGet(1_500)); // the registry's clock does not move
        assertThat(b.snapshot().slowCalls()).isEqualTo(1);
        assertThat(b.currentTimeNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(2_500));
    }

    @Test
    void aTimestampFunctionReadsTheRegistrysClock() {
        CircuitBreaker b = t.breaker(CircuitBreakerConfig.builder()
                .currentTimestampFunction(clock -> clock.instant().toEpochMilli(), TimeUnit.MILLISECONDS).build());
        long before = b.currentTimeNanos();
        t.clock.advance(Duration.ofMillis(250));
        assertThat(b.currentTimeNanos() - before).isEqualTo(TimeUnit.MILLISECONDS.toNanos(250));
        Instant instant = Instant.parse("2026-03-01T10:15:30Z");
        assertThat(b.config().currentTimestampFunction().apply(Clock.fixed(instant, ZoneId.systemDefault())))
                .isEqualTo(instant.toEpochMilli());
        assertThatThrownBy(() -> CircuitBreakerConfig.builder().currentTimestampFunction(c -> 1L, null).build())
                .hasMessageContaining("current-timestamp-function needs a time unit");
    }

    /** Resilience4j's shouldCancelAutoTransition: the scheduler's handle cancels the timed OPEN to HALF_OPEN. */
    @Test
    void leavingOpenCancelsTheAutomaticTransitionThroughTheSchedulersHandle() {
        List<Duration> scheduled = new ArrayList<>();
        AtomicInteger cancelled = new AtomicInteger();
        Scheduler recording = (delay, task) -> {
            scheduled.add(delay);
            return cancelled::incrementAndGet;
        };
        CircuitBreaker b = CircuitBreaker.of("auto", CircuitBreakerConfig.builder()
                .waitDurationInOpenState(Duration.ofSeconds(2))
                .automaticTransitionFromOpenToHalfOpenEnabled(true).build(), new ManualClock(), recording);
        b.transitionToOpenState();
        assertThat(scheduled).containsExactly(Duration.ofSeconds(2));
        assertThat(cancelled).hasValue(0);
        b.transitionToForcedOpenState();
        assertThat(cancelled).hasValue(1);
    }
}
