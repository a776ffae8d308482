package io.guard.event;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventBufferTest {

    @Test
    void keepsTheNewestEventsNewestFirst() {
        EventBuffer buffer = new EventBuffer(3);
        for (int i = 0; i < 5; i++) {
            buffer.onEvent(event(i));
        }
        assertThat(buffer.newestFirst()).extracting(e -> e.details().get("n")).containsExactly("4", "3", "2");
        assertThat(buffer.totalWritten()).isEqualTo(5);
        assertThat(buffer.capacity()).isEqualTo(3);
    }

    @Test
    void rejectsAnEmptyCapacity() {
        assertThatThrownBy(() -> new EventBuffer(0)).hasMessage("event buffer size must be at least 1 but was 0");
    }

    /** A reader racing writers never lists an event twice and always lists newer events before older ones. */
    @Test
    void readersRacingWritersSeeEachEventAtMostOnceInOrder() throws Exception {
        EventBuffer buffer = new EventBuffer(4);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        AtomicBoolean stop = new AtomicBoolean();
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    for (int i = 0; !stop.get() && i < 2_000_000; i++) {
                        buffer.onEvent(event(writer * 10_000_000 + i));
                    }
                }));
            }
            Future<?> reader = pool.submit(() -> {
                for (int r = 0; r < 20_000; r++) {
                    List<GuardEvent> seen = buffer.newestFirst();
                    assertThat(new HashSet<>(seen)).hasSameSizeAs(seen);
                    assertThat(seen.size()).isLessThanOrEqualTo(4);
                    for (int writer = 0; writer < 2; writer++) {
                        int w = writer;
                        List<Integer> own = seen.stream().map(e -> Integer.parseInt(e.details().get("n")))
                                .filter(n -> n / 10_000_000 == w).toList();
                        assertThat(own).isSortedAccordingTo((a, b) -> Integer.compare(b, a));
                    }
                }
            });
            reader.get(60, TimeUnit.SECONDS);
            stop.set(true);
            for (Future<?> writer : writers) {
                writer.get(60, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
    }

    private static GuardEvent event(int n) {
        return new GuardEvent(GuardEvent.Source.CIRCUIT_BREAKER, "b", GuardEvent.Type.ERROR,
                Instant.EPOCH.plusSeconds(n), null, Map.of("n", Integer.toString(n)));
    }
}
