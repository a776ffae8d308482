package io.guard.spring.bulkhead;

import io.guard.bulkhead.Bulkhead;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The adaptive limits on a manual clock: the bulkhead measures each call's latency, Netflix's algorithm moves. */
class AdaptiveLimitsTest {

    private final ManualClock clock = new ManualClock();

    private Bulkhead bulkhead(AdaptiveLimitProperties settings) {
        return new Bulkhead("downstream", AdaptiveLimits.create(settings), AdaptiveLimits.retryAfter(settings), clock,
                10);
    }

    /** Admits every call the limit allows, lets them run {@code latency}, and answers them in order. */
    private void round(Bulkhead bulkhead, Duration latency) {
        List<Bulkhead.Permit> running = new ArrayList<>();
        for (Bulkhead.Permit p = bulkhead.tryAcquire(); p != null; p = bulkhead.tryAcquire()) {
            running.add(p);
        }
        clock.advance(latency);
        running.forEach(Bulkhead.Permit::onSuccess);
    }

    @Test
    void gradient2FallsWhenTheLatencyRisesAndStaysWithinItsBounds() {
        AdaptiveLimitProperties settings = new AdaptiveLimitProperties();
        settings.setMinLimit(2);
        settings.setMaxLimit(100);
        Bulkhead bulkhead = bulkhead(settings);
        assertThat(bulkhead.maxConcurrentCalls()).isEqualTo(20);
        assertThat(bulkhead.algorithm()).isEqualTo("gradient2");
        for (int i = 0; i < 30; i++) {
            round(bulkhead, Duration.ofMillis(10));
        }
        int healthy = bulkhead.maxConcurrentCalls();
        assertThat(healthy).as("the limit grows while the latency holds").isGreaterThan(20);
        round(bulkhead, Duration.ofMillis(500));
        int slowed = bulkhead.maxConcurrentCalls();
        assertThat(slowed).as("limit after one round at 500 ms, from %d at 10 ms", healthy)
                .isLessThan(healthy / 2).isGreaterThanOrEqualTo(2);
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void aimdBacksOffOnADropOrACallSlowerThanItsTimeoutAndGrowsWhenBusy() {
        AdaptiveLimitProperties settings = new AdaptiveLimitProperties();
        settings.setAlgorithm(AdaptiveAlgorithm.AIMD);
        settings.setInitialLimit(10);
        settings.setBackoffRatio(0.5);
        settings.setTimeout(Duration.ofMillis(100));
        Bulkhead bulkhead = bulkhead(settings);
        Bulkhead.Permit slow = bulkhead.tryAcquire();
        clock.advanceMillis(150);
        slow.onSuccess();
        assertThat(bulkhead.maxConcurrentCalls()).isEqualTo(5);
        bulkhead.tryAcquire().onDropped();
        assertThat(bulkhead.maxConcurrentCalls()).isEqualTo(2);
        bulkhead.tryAcquire().release();
        assertThat(bulkhead.maxConcurrentCalls()).as("a call without a sample moves nothing").isEqualTo(2);
        round(bulkhead, Duration.ofMillis(10));
        assertThat(bulkhead.maxConcurrentCalls()).as("two answers, each with the limit in use").isEqualTo(4);
        assertThat(bulkhead.algorithm()).isEqualTo("aimd");
    }

    @Test
    void vegasStartsWhereItIsToldAndRefusalsCarryTheRetryAfter() {
        AdaptiveLimitProperties settings = new AdaptiveLimitProperties();
        settings.setAlgorithm(AdaptiveAlgorithm.VEGAS);
        settings.setInitialLimit(1);
        settings.setRetryAfter(Duration.ofSeconds(3));
        Bulkhead bulkhead = bulkhead(settings);
        assertThat(bulkhead.algorithm()).isEqualTo("vegas");
        bulkhead.tryAcquire();
        assertThat(bulkhead.full().retryAfterHint()).contains(Duration.ofSeconds(3));
    }

    @Test
    void theRetryAfterIsOneSecondUnlessSetAndZeroSendsNone() {
        AdaptiveLimitProperties settings = new AdaptiveLimitProperties();
        assertThat(AdaptiveLimits.retryAfter(null)).isEqualTo(Duration.ofSeconds(1));
        settings.setRetryAfter(Duration.ZERO);
        assertThat(AdaptiveLimits.retryAfter(settings)).isNull();
    }

    @Test
    void eachSettingThatCannotWorkIsNamedWithItsValue() {
        AdaptiveLimitProperties settings = new AdaptiveLimitProperties();
        settings.setAlgorithm(AdaptiveAlgorithm.VEGAS);
        settings.setMinLimit(0);
        settings.setRttTolerance(0.5);
        settings.setBackoffRatio(1.0);
        settings.setRetryAfter(Duration.ofSeconds(-1));
        assertThat(AdaptiveLimits.problems(settings)).containsExactlyInAnyOrder(
                new AdaptiveLimits.Problem("min-limit", 0, "must be at least 1"),
                new AdaptiveLimits.Problem("min-limit", 0, "is not a setting of vegas, only of [gradient2, aimd]"),
                new AdaptiveLimits.Problem("rtt-tolerance", 0.5, "is not a setting of vegas, only of [gradient2]"),
                new AdaptiveLimits.Problem("rtt-tolerance", 0.5, "must be at least 1"),
                new AdaptiveLimits.Problem("backoff-ratio", 1.0, "must be in [0.5, 1)"),
                new AdaptiveLimits.Problem("retry-after", Duration.ofSeconds(-1),
                        "must not be negative: 0 sends no Retry-After"));
    }

    @Test
    void boundsThatDoNotNestAreOneProblem() {
        AdaptiveLimitProperties settings = new AdaptiveLimitProperties();
        settings.setInitialLimit(300);
        assertThat(AdaptiveLimits.problems(settings)).containsExactly(new AdaptiveLimits.Problem("", null,
                "min-limit (1) <= initial-limit (300) <= max-limit (200) does not hold"));
    }

    @Test
    void adaptiveIsReadWhateverItsCase() {
        assertThat(AdaptiveLimits.isAdaptive(" Adaptive ")).isTrue();
        assertThat(AdaptiveLimits.isAdaptive("10")).isFalse();
        assertThat(AdaptiveLimits.isAdaptive(null)).isFalse();
    }
}
