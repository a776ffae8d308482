package io.guard.time;

import java.time.Duration;
import java.util.Objects;

/**
 * A task run at once and then again {@code interval} after each run ended, on a {@link Scheduler}, until closed: the
 * periodic re-read of what instances share through Redis (limit overrides, fleet-wide breaker commands). Measuring the
 * interval from the end of a run means a slow store never piles runs up.
 */
public final class RepeatingTask implements AutoCloseable {

    private final Scheduler scheduler;
    private final Duration interval;
    private final Runnable task;
    private final Object lock = new Object();
    private Runnable cancelNext; // guarded by lock; null before start()
    private boolean closed; // guarded by lock

    /**
     * @param interval the pause between the end of one run and the start of the next; positive
     * @param task     runs on whatever thread the scheduler runs tasks; a run that throws does not stop the next
     */
    public RepeatingTask(Scheduler scheduler, Duration interval, Runnable task) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.task = Objects.requireNonNull(task, "task");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive but was " + interval);
        }
        this.interval = interval;
    }

    /** Schedules the first run at once; a second call, or a call after {@link #close()}, does nothing. */
    public void start() {
        synchronized (lock) {
            if (cancelNext == null && !closed) {
                cancelNext = scheduler.schedule(Duration.ZERO, this::run);
            }
        }
    }

    private void run() {
        try {
            task.run();
        } finally {
            synchronized (lock) {
                if (!closed) {
                    cancelNext = scheduler.schedule(interval, this::run);
                }
            }
        }
    }

    /** Cancels the next run; a run under way finishes. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            if (cancelNext != null) {
                cancelNext.run();
            }
        }
    }
}
