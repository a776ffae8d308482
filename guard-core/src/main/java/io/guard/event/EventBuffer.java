package io.guard.event;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The most recent events of one breaker or limiter, in a fixed-size ring, so that a busy service keeps a
 * useful history without growing memory. Writers never block each other: a slot is claimed with one atomic
 * increment, and a reader may see a slot being overwritten, in which case it skips the older event.
 */
public final class EventBuffer implements GuardEventListener {

    private final AtomicReferenceArray<GuardEvent> slots;
    private final AtomicLong written = new AtomicLong();

    /**
     * @param capacity how many events to keep; at least 1
     * @throws IllegalArgumentException if {@code capacity} is below 1
     */
    public EventBuffer(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("event buffer size must be at least 1 but was " + capacity);
        }
        this.slots = new AtomicReferenceArray<>(capacity);
    }

    @Override
    public void onEvent(GuardEvent event) {
        long index = written.getAndIncrement();
        slots.set((int) (index % slots.length()), event);
    }

    /** The buffered events, newest first. */
    public List<GuardEvent> newestFirst() {
        long end = written.get();
        int capacity = slots.length();
        long start = Math.max(0, end - capacity);
        List<GuardEvent> events = new ArrayList<>((int) (end - start));
        for (long i = end - 1; i >= start; i--) {
            GuardEvent event = slots.get((int) (i % capacity));
            if (event != null) {
                events.add(event);
            }
        }
        return events;
    }

    /** How many events were ever written, including those since overwritten. */
    public long totalWritten() {
        return written.get();
    }

    /** The capacity given at construction. */
    public int capacity() {
        return slots.length();
    }
}
