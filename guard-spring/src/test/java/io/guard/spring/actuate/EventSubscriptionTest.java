package io.guard.spring.actuate;

import io.guard.event.GuardEvent;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class EventSubscriptionTest {

    /** Runs drain tasks only when the test says so, standing in for a writer thread that is slow. */
    private final Queue<Runnable> pending = new ArrayDeque<>();
    private final Executor manual = pending::add;
    private final List<String> received = new ArrayList<>();
    private final AtomicInteger closes = new AtomicInteger();

    private static GuardEvent event(String name, GuardEvent.Type type) {
        return new GuardEvent(GuardEvent.Source.CIRCUIT_BREAKER, name, type, Instant.EPOCH, Duration.ZERO, Map.of());
    }

    private void runPending() {
        Runnable task;
        while ((task = pending.poll()) != null) {
            task.run();
        }
    }

    @Test
    void deliversInOrderWithOneDrainTaskAtATime() {
        EventSubscription s = new EventSubscription(e -> true, 8, manual, e -> received.add(e.name()),
                closes::incrementAndGet);

        s.offer(event("a", GuardEvent.Type.SUCCESS));
        s.offer(event("b", GuardEvent.Type.SUCCESS));
        s.offer(event("c", GuardEvent.Type.SUCCESS));

        assertThat(pending).hasSize(1);
        runPending();
        assertThat(received).containsExactly("a", "b", "c");
        assertThat(s.dropped()).isZero();
    }

    @Test
    void aClientThatDoesNotKeepUpLosesItsNewestEventsAndNeverBlocksTheCaller() {
        EventSubscription s = new EventSubscription(e -> true, 2, manual, e -> received.add(e.name()),
                closes::incrementAndGet);

        for (String name : List.of("a", "b", "c", "d")) {
            s.offer(event(name, GuardEvent.Type.SUCCESS));
        }

        assertThat(s.dropped()).isEqualTo(2);
        runPending();
        assertThat(received).containsExactly("a", "b");
    }

    @Test
    void skipsEventsTheFilterRejects() {
        EventSubscription s = new EventSubscription(EventFilter.of("payment", "STATE_TRANSITION"), 8, manual,
                e -> received.add(e.name() + ":" + e.type()), closes::incrementAndGet);

        s.offer(event("payment", GuardEvent.Type.SUCCESS));
        s.offer(event("stock", GuardEvent.Type.STATE_TRANSITION));
        s.offer(event("payment", GuardEvent.Type.STATE_TRANSITION));
        runPending();

        assertThat(received).containsExactly("payment:STATE_TRANSITION");
    }

    @Test
    void aFailingWriteEndsTheSubscriptionOnce() {
        EventSubscription s = new EventSubscription(e -> true, 8, manual, e -> {
            throw new IOException("Broken pipe");
        }, closes::incrementAndGet);

        s.offer(event("a", GuardEvent.Type.SUCCESS));
        runPending();
        s.offer(event("b", GuardEvent.Type.SUCCESS));
        s.close();

        assertThat(s.isClosed()).isTrue();
        assertThat(closes).hasValue(1);
        assertThat(pending).isEmpty();
    }

    @Test
    void anEventOfferedWhileDrainingIsDeliveredByAFollowUpTask() {
        List<EventSubscription> self = new ArrayList<>();
        EventSubscription s = new EventSubscription(e -> true, 8, manual, e -> {
            received.add(e.name());
            if (e.name().equals("a")) {
                self.get(0).offer(event("late", GuardEvent.Type.SUCCESS));
            }
        }, closes::incrementAndGet);
        self.add(s);

        s.offer(event("a", GuardEvent.Type.SUCCESS));
        runPending();

        assertThat(received).containsExactly("a", "late");
    }
}
