package io.guard.time;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task once after a delay; used for timed state changes (OPEN to HALF_OPEN, a HALF_OPEN that waited too
 * long). Its own small type rather than {@link ScheduledExecutorService} so that a test can run due tasks by
 * moving a {@link ManualClock}, with no threads and no sleeping.
 */
@FunctionalInterface
public interface Scheduler {

    /**
     * Runs {@code task} once, {@code delay} from now on this scheduler's timeline.
     *
     * @return cancels the task if it has not run yet; cancelling twice or after the run does nothing
     */
    Runnable schedule(Duration delay, Runnable task);

    /** A scheduler backed by {@code executor}, whose lifecycle stays with the caller. */
    static Scheduler of(ScheduledExecutorService executor) {
        Objects.requireNonNull(executor, "executor");
        return (delay, task) -> {
            ScheduledFuture<?> future = executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
            return () -> future.cancel(false);
        };
    }
}
