package io.guard.ratelimit;

import io.guard.time.Scheduler;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The thread that times backend calls for a {@link FailoverRateLimiter} given no scheduler: one daemon thread,
 * started on the first call that needs it, stopped by {@link #close()}. Cancelled timers leave its queue at once,
 * so answered calls cost it nothing.
 *
 * <p>A call it gives up is answered by the failure policy on another thread ({@link #answer}), since whatever the
 * caller chained on the answer runs there and must not hold up other timeouts: a small pool of daemon threads,
 * started when first needed and ended after a minute without work. Not CompletableFuture's default asynchronous
 * executor, which on a machine of one or two CPUs starts a new thread for every task.
 */
final class DeadlineTimer implements Scheduler, AutoCloseable {

    /** At most this many answers run at once; more wait in order. */
    static final int ANSWER_THREADS = 4;
    private static final long IDLE_SECONDS = 60;

    private final String name;
    private final String answerName;
    private ScheduledThreadPoolExecutor executor;
    private ThreadPoolExecutor answers;
    private Scheduler scheduler;
    private boolean closed;

    /**
     * @param name       the timer thread's name
     * @param answerName the answering threads' names, followed by {@code -1}, {@code -2}, ...
     */
    DeadlineTimer(String name, String answerName) {
        this.name = name;
        this.answerName = answerName;
    }

    /** Runs {@code task} on one of the answering threads; not at all once closed. */
    void answer(Runnable task) {
        ThreadPoolExecutor running;
        synchronized (this) {
            if (closed) {
                return;
            }
            if (answers == null) {
                AtomicInteger count = new AtomicInteger();
                answers = new ThreadPoolExecutor(ANSWER_THREADS, ANSWER_THREADS, IDLE_SECONDS, TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(), daemon(() -> answerName + "-" + count.incrementAndGet()));
                answers.allowCoreThreadTimeOut(true);
            }
            running = answers;
        }
        try {
            running.execute(task);
        } catch (RejectedExecutionException closedMeanwhile) {
            // closed: nobody waits for the answer any more
        }
    }

    @Override
    public Runnable schedule(Duration delay, Runnable task) {
        Scheduler running;
        synchronized (this) {
            if (closed) {
                return () -> { };
            }
            if (executor == null) {
                executor = new ScheduledThreadPoolExecutor(1, daemon(() -> name));
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
        if (answers != null) {
            answers.shutdownNow();
        }
    }

    private static ThreadFactory daemon(Supplier<String> name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name.get());
            thread.setDaemon(true);
            return thread;
        };
    }
}
