package io.guard.breaker.window;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Long runs of fast successes fill a thread's stripe past the ring's size, and past the stripe's own capacity, before
 * anything drains it: the window must still hold exactly the last {@code size} calls, durations included.
 */
class CountWindowLongRunTest {

    @Test
    void longRunsOfSuccessesKeepExactlyTheLastCalls() {
        Random random = new Random(20261129L);
        for (int sequence = 0; sequence < 200; sequence++) {
            int size = 1 + random.nextInt(120);
            CountWindow window = new CountWindow(size, 1);
            NaiveWindow naive = new NaiveWindow();
            int runs = 1 + random.nextInt(6);
            for (int run = 0; run < runs; run++) {
                boolean failed = random.nextBoolean();
                NaiveWindow.Call odd = new NaiveWindow.Call(0, failed, !failed, 1_000 + random.nextInt(1_000));
                window.record(odd.nanos(), odd.failed(), odd.slow());
                naive.add(odd);
                int successes = random.nextInt(1_500);
                for (int i = 0; i < successes; i++) {
                    NaiveWindow.Call ok = new NaiveWindow.Call(0, false, false, 1 + random.nextInt(900));
                    window.record(ok.nanos(), false, false);
                    naive.add(ok);
                }
            }
            assertThat(window.snapshot()).as("sequence %d, size %d", sequence, size)
                    .isEqualTo(naive.lastCalls(size, 1));
        }
    }
}
