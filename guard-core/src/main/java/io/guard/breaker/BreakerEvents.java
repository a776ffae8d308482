package io.guard.breaker;

import io.guard.event.EventBuffer;
import io.guard.event.GuardEvent;
import io.guard.event.GuardEventListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Publishes one breaker's events to its listeners and its bounded buffer.
 *
 * <p>Kept cheap on the hot path: a {@code SUCCESS} event is only built when a listener is registered, and it is
 * never buffered, so the buffer keeps the interesting history (errors, refusals, transitions) instead of
 * being flushed by healthy traffic.
 */
final class BreakerEvents {

    private static final Logger log = LoggerFactory.getLogger(BreakerEvents.class);

    private final String name;
    private final io.guard.time.GuardClock clock;
    private final EventBuffer buffer;
    private final List<GuardEventListener> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean listening;

    BreakerEvents(String name, io.guard.time.GuardClock clock, int bufferSize) {
        this.name = name;
        this.clock = clock;
        this.buffer = new EventBuffer(bufferSize);
    }

    void addListener(GuardEventListener listener) {
        listeners.add(java.util.Objects.requireNonNull(listener, "listener"));
        listening = true;
    }

    List<GuardEvent> recent() {
        return buffer.newestFirst();
    }

    void success(long durationNanos) {
        if (listening) {
            publish(GuardEvent.Type.SUCCESS, durationNanos, Map.of());
        }
    }

    void publish(GuardEvent.Type type, long durationNanos, Map<String, String> details) {
        GuardEvent event = new GuardEvent(GuardEvent.Source.CIRCUIT_BREAKER, name, type, clock.instant(),
                Duration.ofNanos(Math.max(0, durationNanos)), details);
        if (type != GuardEvent.Type.SUCCESS) {
            buffer.onEvent(event);
        }
        for (GuardEventListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (Throwable e) { // even an Error: a listener must not stop the outcome from being recorded
                log.warn("Circuit breaker '{}': event listener {} threw on {}", name, listener, type, e);
            }
        }
    }
}
