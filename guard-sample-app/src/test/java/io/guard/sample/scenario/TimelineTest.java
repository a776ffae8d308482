package io.guard.sample.scenario;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineTest {

    private static final long START = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    @Test
    void filesRequestsUnderTheSliceTheyWereSentIn() {
        Timeline timeline = new Timeline(START, Duration.ofMillis(300));

        timeline.sent(timeline.slice(START + 150 * MS));
        timeline.answered(timeline.slice(START + 150 * MS), 120 * MS, false);
        timeline.answered(timeline.slice(START + 199 * MS), 2 * MS, true);

        Timeline.Row second = timeline.rows(List.of()).get(1);
        assertThat(second.startMs()).isEqualTo(100);
        assertThat(second.sent()).isEqualTo(1);
        assertThat(second.answered()).isEqualTo(1);
        assertThat(second.fallbacks()).isEqualTo(1);
        assertThat(second.p50Ms()).isEqualTo(2.0);
        assertThat(second.p99Ms()).isEqualTo(120.0);
    }

    @Test
    void ignoresTimesOutsideTheScenario() {
        Timeline timeline = new Timeline(START, Duration.ofMillis(300));

        assertThat(timeline.slice(START - 1)).isEqualTo(-1);
        assertThat(timeline.slice(START + 400 * MS)).isEqualTo(-1);
    }

    @Test
    void showsTheStateInForceAtTheEndOfEachSlice() {
        Timeline timeline = new Timeline(START, Duration.ofMillis(500));

        List<Timeline.Row> rows = timeline.rows(List.of(
                new Transition(120, "CLOSED", "OPEN"),
                new Transition(310, "OPEN", "HALF_OPEN"),
                new Transition(350, "HALF_OPEN", "CLOSED")));

        assertThat(rows).extracting(Timeline.Row::state)
                .containsExactly("CLOSED", "OPEN", "OPEN", "CLOSED", "CLOSED", "CLOSED");
    }

    @Test
    void takesTheNearestRankPercentile() {
        long[] micros = {1_000, 2_000, 3_000, 4_000};

        assertThat(Timeline.percentile(micros, 0.50)).isEqualTo(2.0);
        assertThat(Timeline.percentile(micros, 0.99)).isEqualTo(4.0);
        assertThat(Timeline.percentile(new long[0], 0.5)).isNaN();
    }

    @Test
    void writesOneCsvLinePerSlice() {
        Timeline timeline = new Timeline(START, Duration.ofMillis(100));
        timeline.sent(0);
        timeline.downstreamCall(0);
        timeline.failed(0, 1500 * MS);

        assertThat(timeline.rows(List.of()).get(0).csv()).isEqualTo("0,CLOSED,1,1,0,0,1,1500.0,1500.0");
        assertThat(timeline.rows(List.of()).get(1).csv()).isEqualTo("100,CLOSED,0,0,0,0,0,,");
    }
}
