package io.guard.ratelimit;

import io.guard.time.Scheduler;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * The thread that times backend calls for a {@link FailoverRateLimiter} given no scheduler: one daemon thread,
 * started on the first call that needs it, stopped by {@link #close()}. Cancelled timers leave its queue at once,
 * so answered calls cost it nothing.
 */
final class DeadlineTimer implements Scheduler, AutoCloseable {

    private final String name;
    private ScheduledThreadPoolExecutor executor;
    private Scheduler scheduler;
    private boolean closed;

    DeadlineTimer(String name) {
        this.name = name;
    }

    @Override
    public Runnable schedule(Duration delay, Runnable task) {
        Scheduler running;
        synchronized (this) {
            if (closed) {
                return () -> { };
            }
            if (executor == null) {
                executor = new ScheduledThreadPoolExecutor(1, r -> {
                    Thread thread = new Thread(r, name);
                    thread.setDaemon(true);
                    return thread;
                });
                executor.setRemoveOnCancelPolicy(true);
                scheduler = Scheduler.of(executor);
            }
            running = scheduler;
        }
        try {
            return running.schedule(delay, task);
        } catch (RejectedExecutionException closedMeanwhile) {
            return () -> { };
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
