package io.guard.time;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RepeatingTaskTest {

    private final ManualClock timer = new ManualClock();

    @Test
    void runsAtOnceThenAnIntervalAfterEachRunUntilClosedEvenWhenARunThrows() {
        AtomicInteger runs = new AtomicInteger();
        RepeatingTask task = new RepeatingTask(timer, Duration.ofSeconds(5), () -> {
            if (runs.incrementAndGet() == 2) {
                throw new IllegalStateException("the store is down");
            }
        });

        task.start();
        task.start();
        timer.advance(Duration.ZERO);
        assertThat(runs).hasValue(1);
        timer.advance(Duration.ofSeconds(4));
        assertThat(runs).hasValue(1);
        try {
            timer.advance(Duration.ofSeconds(1));
        } catch (IllegalStateException expected) {
            // the run's own failure reaches whoever ran it; the next run is scheduled all the same
        }
        assertThat(runs).hasValue(2);
        timer.advance(Duration.ofSeconds(5));
        assertThat(runs).hasValue(3);

        task.close();
        timer.advance(Duration.ofSeconds(30));
        assertThat(runs).hasValue(3);
        assertThat(timer.pendingTasks()).isZero();
    }

    @Test
    void anIntervalThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> new RepeatingTask(timer, Duration.ZERO, () -> { }))
                .hasMessage("interval must be positive but was PT0S");
    }
}
