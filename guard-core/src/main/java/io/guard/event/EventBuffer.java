package io.guard.event;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The most recent events of one breaker or limiter, in a fixed-size ring, so that a busy service keeps a
 * useful history without growing memory. Writers never block each other: a sequence number is claimed with one
 * atomic increment and the slot is written with a CAS that never replaces a newer entry by an older one.
 * Each slot remembers its sequence number, so a reader racing the writers lists every event at most once, in
 * order, and skips slots that were overwritten (or not yet written) while it read.
 */
public final class EventBuffer implements GuardEventListener {

    private final AtomicReferenceArray<Entry> slots;
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
        long sequence = written.getAndIncrement();
        int index = (int) (sequence % slots.length());
        Entry entry = new Entry(sequence, event);
        while (true) {
            Entry old = slots.get(index);
            if (old != null && old.sequence > sequence) {
                return; // a writer that started later already filled this slot: ours is older than the ring
            }
            if (slots.compareAndSet(index, old, entry)) {
                return;
            }
        }
    }

    /** The buffered events, newest first. */
    public List<GuardEvent> newestFirst() {
        long end = written.get();
        int capacity = slots.length();
        long start = Math.max(0, end - capacity);
        List<GuardEvent> events = new ArrayList<>((int) (end - start));
        for (long i = end - 1; i >= start; i--) {
            Entry entry = slots.get((int) (i % capacity));
            if (entry != null && entry.sequence == i) {
                events.add(entry.event);
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

    private record Entry(long sequence, GuardEvent event) {
    }
}
