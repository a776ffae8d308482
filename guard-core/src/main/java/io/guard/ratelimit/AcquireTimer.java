package io.guard.ratelimit;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The one timer thread behind a {@link RateLimiterRegistry}'s waiting acquires: started on the first wait, so a
 * registry that never waits starts no thread, and stopped by the registry's {@code close()}.
 */
final class AcquireTimer implements AutoCloseable {

    private final Object lock = new Object();
    private ScheduledExecutorService timer;

    ScheduledExecutorService get() {
        synchronized (lock) {
            if (timer == null) {
                timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
                    Thread thread = new Thread(runnable, "guard-rate-limit-acquire");
                    thread.setDaemon(true);
                    return thread;
                });
            }
            return timer;
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (timer != null) {
                timer.shutdownNow();
            }
        }
    }
}
