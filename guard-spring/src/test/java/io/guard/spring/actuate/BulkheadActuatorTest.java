package io.guard.spring.actuate;

import io.guard.bulkhead.BulkheadRegistry;
import io.guard.event.GuardEvent;
import io.guard.spring.bulkhead.AdaptiveAlgorithm;
import io.guard.spring.bulkhead.AdaptiveLimitProperties;
import io.guard.spring.bulkhead.AdaptiveLimits;
import io.guard.time.ManualClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Bulkheads in the {@code guard} endpoint, the event listing and the meters. */
class BulkheadActuatorTest {

    private final BulkheadRegistry bulkheads = new BulkheadRegistry(1, Map.of(), 10, new ManualClock(), 10);

    @Test
    void theEndpointListsBulkheadsWithTheirCounts() {
        var inventory = bulkheads.bulkhead("inventory", 2);
        inventory.tryAcquire();
        inventory.tryAcquire();
        inventory.tryAcquire();
        var report = new GuardEndpoint(new GuardRegistries(null, null, bulkheads)).guard();
        assertThat(report.bulkheads()).containsOnlyKeys("inventory");
        assertThat(report.bulkheads().get("inventory")).isEqualTo(new BulkheadDescriptor(2, 2, 2, 1, "fixed"));
        assertThat(new GuardRegistries(null, null, bulkheads).recentEvents()).singleElement()
                .satisfies(e -> assertThat(e.source()).isEqualTo(GuardEvent.Source.BULKHEAD));
    }

    @Test
    void metersReadTheBulkheadsCountersIncludingBulkheadsCreatedLater() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new GuardMetrics(null, null, bulkheads).bindTo(meters);
        var later = bulkheads.bulkhead("later", 1);
        later.tryAcquire();
        later.tryAcquire();
        assertThat(meters.get("guard.bulkhead.concurrent.calls").tag("name", "later").gauge().value()).isEqualTo(1);
        assertThat(meters.get("guard.bulkhead.max.concurrent.calls").tag("name", "later").gauge().value())
                .isEqualTo(1);
        assertThat(meters.get("guard.bulkhead.calls").tags("name", "later", "result", "permitted").functionCounter()
                .count()).isEqualTo(1);
        assertThat(meters.get("guard.bulkhead.calls").tags("name", "later", "result", "refused").functionCounter()
                .count()).isEqualTo(1);
    }

    @Test
    void anAdaptiveBulkheadShowsWhereItsLimitStandsNowInTheEndpointAndTheMeters() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new GuardMetrics(null, null, bulkheads).bindTo(meters);
        AdaptiveLimitProperties settings = new AdaptiveLimitProperties();
        settings.setAlgorithm(AdaptiveAlgorithm.AIMD);
        settings.setInitialLimit(10);
        settings.setBackoffRatio(0.5);
        var adaptive = bulkheads.bulkhead("adaptive", () -> AdaptiveLimits.create(settings), null);
        adaptive.tryAcquire().onDropped();
        var running = adaptive.tryAcquire();
        assertThat(meters.get("guard.bulkhead.max.concurrent.calls").tag("name", "adaptive").gauge().value())
                .isEqualTo(5);
        assertThat(meters.get("guard.bulkhead.concurrent.calls").tag("name", "adaptive").gauge().value())
                .isEqualTo(1);
        assertThat(new GuardEndpoint(new GuardRegistries(null, null, bulkheads)).guard().bulkheads().get("adaptive"))
                .isEqualTo(new BulkheadDescriptor(5, 1, 2, 0, "aimd"));
        running.release();
    }
}
