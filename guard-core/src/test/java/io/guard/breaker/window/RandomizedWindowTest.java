package io.guard.breaker.window;

import io.guard.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Thousands of random call sequences through each window give the same snapshot as a naive recount, after every
 * call; and a window may only skip the threshold check (return null) for a call that cannot raise a rate.
 */
class RandomizedWindowTest {

    private static final long SEED = 20261129L;

    @Test
    void countWindowEqualsRecountOfLastCalls() {
        Random random = new Random(SEED);
        for (int sequence = 0; sequence < 3000; sequence++) {
            int size = 1 + random.nextInt(20);
            int minimum = 1 + random.nextInt(25);
            int effectiveMinimum = Math.min(minimum, size);
            CountWindow window = new CountWindow(size, minimum);
            NaiveWindow naive = new NaiveWindow();
            int length = random.nextInt(300);
            for (int i = 0; i < length; i++) {
                NaiveWindow.Call call = randomCall(random, 0);
                int before = naive.lastCalls(size, minimum).calls();
                Snapshot returned = window.record(call.nanos(), call.failed(), call.slow());
                naive.add(call);
                Snapshot expected = naive.lastCalls(size, effectiveMinimum);
                String where = "sequence " + sequence + " call " + i + " size " + size + " minimum " + minimum;
                if (returned == null) {
                    assertThat(call.failed() || call.slow() || before < effectiveMinimum).as(where).isFalse();
                } else {
                    assertThat(returned).as(where).isEqualTo(expected);
                }
                if (random.nextInt(8) == 0) {
                    assertThat(window.snapshot()).as(where).isEqualTo(expected);
                }
            }
            assertThat(window.snapshot()).isEqualTo(naive.lastCalls(size, effectiveMinimum));
        }
    }

    @Test
    void timeWindowEqualsRecountOfLastSeconds() {
        Random random = new Random(SEED + 1);
        for (int sequence = 0; sequence < 2000; sequence++) {
            ManualClock clock = new ManualClock();
            clock.advanceMillis(random.nextInt(5000));
            int size = 1 + random.nextInt(10);
            int minimum = 1 + random.nextInt(15);
            TimeWindow window = new TimeWindow(size, minimum, clock);
            NaiveWindow naive = new NaiveWindow();
            int length = random.nextInt(200);
            for (int i = 0; i < length; i++) {
                int step = random.nextInt(10);
                clock.advanceMillis(step < 6 ? random.nextInt(50) : step < 9 ? random.nextInt(1500) : random.nextInt(12_000));
                long now = second(clock);
                int before = naive.lastSeconds(now, size, minimum).calls();
                NaiveWindow.Call call = randomCall(random, now);
                Snapshot returned = window.record(call.nanos(), call.failed(), call.slow());
                naive.add(call);
                Snapshot expected = naive.lastSeconds(now, size, minimum);
                String where = "sequence " + sequence + " call " + i + " size " + size + " minimum " + minimum;
                if (returned == null) {
                    assertThat(call.failed() || call.slow() || before < minimum).as(where).isFalse();
                } else {
                    assertThat(returned).as(where).isEqualTo(expected);
                }
                if (random.nextInt(8) == 0) {
                    clock.advanceMillis(random.nextInt(3000));
                    assertThat(window.snapshot()).as(where)
                            .isEqualTo(naive.lastSeconds(second(clock), size, minimum));
                }
            }
            assertThat(window.snapshot()).isEqualTo(naive.lastSeconds(second(clock), size, minimum));
        }
    }

    /**
     * Calls made by several threads taking turns land in different stripes; the parked successes are applied in
     * stripe order, which can only permute the durations of consecutive successes, so every count and rate still
     * equals the recount.
     */
    @Test
    void countWindowKeepsExactCountsWhenThreadsTakeTurns() throws Exception {
        Random random = new Random(SEED + 2);
        List<ExecutorService> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(Executors.newSingleThreadExecutor());
        }
        try {
            for (int sequence = 0; sequence < 300; sequence++) {
                int size = 1 + random.nextInt(30);
                CountWindow window = new CountWindow(size, 1);
                NaiveWindow naive = new NaiveWindow();
                for (int i = 0; i < 200; i++) {
                    NaiveWindow.Call call = randomCall(random, 0);
                    Future<?> done = threads.get(random.nextInt(threads.size()))
                            .submit(() -> window.record(call.nanos(), call.failed(), call.slow()));
                    done.get();
                    naive.add(call);
                }
                Snapshot actual = window.snapshot();
                Snapshot expected = naive.lastCalls(size, 1);
                assertThat(actual).usingRecursiveComparison().ignoringFields("averageDuration").isEqualTo(expected);
            }
        } finally {
            threads.forEach(ExecutorService::shutdownNow);
        }
    }

    private static NaiveWindow.Call randomCall(Random random, long second) {
        boolean failed = random.nextInt(4) == 0;
        boolean slow = random.nextInt(5) == 0;
        return new NaiveWindow.Call(second, failed, slow, random.nextInt(1_000_000));
    }

    private static long second(ManualClock clock) {
        return Math.floorDiv(clock.nanoTime(), 1_000_000_000L);
    }
}
