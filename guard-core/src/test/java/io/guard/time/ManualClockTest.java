package io.guard.time;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ManualClockTest {

    @Test
    void movesNanosAndWallTimeTogether() {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        clock.advance(Duration.ofMillis(1500));
        assertThat(clock.nanoTime()).isEqualTo(1_500_000_000L);
        assertThat(clock.instant()).isEqualTo(Instant.parse("2026-01-01T00:00:01.500Z"));
        assertThatThrownBy(() -> clock.advance(Duration.ofMillis(-1))).hasMessageContaining("only moves forward");
    }

    @Test
    void runsDueTasksInDueOrderAtTheirDueTimeAndSkipsCancelledOnes() {
        ManualClock clock = new ManualClock();
        List<String> ran = new ArrayList<>();
        clock.schedule(Duration.ofSeconds(3), () -> ran.add("3s at " + clock.nanoTime()));
        clock.schedule(Duration.ofSeconds(1), () -> ran.add("1s at " + clock.nanoTime()));
        Runnable cancel = clock.schedule(Duration.ofSeconds(2), () -> ran.add("cancelled"));
        cancel.run();
        clock.advance(Duration.ofSeconds(2));
        assertThat(ran).containsExactly("1s at 1000000000");
        clock.advance(Duration.ofSeconds(5));
        assertThat(ran).containsExactly("1s at 1000000000", "3s at 3000000000");
        assertThat(clock.nanoTime()).isEqualTo(7_000_000_000L);
        assertThat(clock.pendingTasks()).isZero();
    }

    @Test
    void aJavaClockDrivesBothReadings() {
        GuardClock clock = GuardClock.of(Clock.fixed(Instant.ofEpochSecond(10, 5), ZoneOffset.UTC));
        assertThat(clock.nanoTime()).isEqualTo(10_000_000_005L);
        assertThat(clock.instant()).isEqualTo(Instant.ofEpochSecond(10, 5));
        long first = GuardClock.system().nanoTime();
        assertThat(GuardClock.system().nanoTime()).isGreaterThanOrEqualTo(first);
    }
}
