package io.guard.time;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A clock and scheduler that move only when told to: tests and simulations advance it by hand, and every task
 * that falls due on the way runs on the advancing thread, in due order. Thread-safe.
 */
public final class ManualClock implements GuardClock, Scheduler {

    private final Instant origin;
    private long nanos;
    private long sequence;
    private final List<Task> tasks = new ArrayList<>();

    /** Starts at {@code 2026-01-01T00:00:00Z} and nanosecond 0. */
    public ManualClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    public ManualClock(Instant origin) {
        this.origin = Objects.requireNonNull(origin, "origin");
    }

    @Override
    public synchronized long nanoTime() {
        return nanos;
    }

    @Override
    public synchronized Instant instant() {
        return origin.plusNanos(nanos);
    }

    /** Moves time forward by {@code delta} and runs the tasks that fall due, each at its own due time. */
    public void advance(Duration delta) {
        if (delta.isNegative()) {
            throw new IllegalArgumentException("a manual clock only moves forward, but delta was " + delta);
        }
        long target;
        synchronized (this) {
            target = Math.addExact(nanos, delta.toNanos());
        }
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.stream().filter(t -> t.due <= target)
                        .min((a, b) -> a.due != b.due ? Long.compare(a.due, b.due) : Long.compare(a.order, b.order))
                        .orElse(null);
                if (next == null) {
                    nanos = Math.max(nanos, target);
                    return;
                }
                tasks.remove(next);
                nanos = Math.max(nanos, next.due);
            }
            next.action.run();
        }
    }

    /** Moves time forward by {@code millis} milliseconds; see {@link #advance(Duration)}. */
    public void advanceMillis(long millis) {
        advance(Duration.ofMillis(millis));
    }

    @Override
    public synchronized Runnable schedule(Duration delay, Runnable task) {
        Task t = new Task(Math.addExact(nanos, Math.max(0, delay.toNanos())), sequence++, task);
        tasks.add(t);
        return () -> {
            synchronized (this) {
                tasks.remove(t);
            }
        };
    }

    /** Tasks scheduled and neither run nor cancelled. */
    public synchronized int pendingTasks() {
        return tasks.size();
    }

    private record Task(long due, long order, Runnable action) {
    }
}
