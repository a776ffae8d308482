package io.guard.time;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A timer whose one thread only keeps time: each task that falls due is handed to a bounded pool of callback threads,
 * because a task runs code Guard does not control (a timeout's fallback or failure-policy answer, whatever the caller
 * chained on the future it completes, event listeners), and one that blocks must not hold up another's timeout. Up
 * to {@code callbackThreads} tasks run at once, each on its own thread; more wait in order. Both the timer and the
 * pool start on first use and let their threads end after a minute without work. Not CompletableFuture's default
 * asynchronous executor, which on a machine of one or two CPUs starts a new thread for every task.
 *
 * <p>Internal: public only because the breakers' registry, the rate limiters' registry and failover, in two
 * packages, run one when given none, and Guard's Spring wiring gives them all the same one; not an API.
 */
public final class CallbackTimer implements Scheduler, AutoCloseable {

    /** Callback threads when the registry builder does not set a number. */
    public static final int DEFAULT_CALLBACK_THREADS = 16;

    private static final Logger log = LoggerFactory.getLogger(CallbackTimer.class);
    private static final long IDLE_SECONDS = 60;

    private final String timerName;
    private final String callbackPrefix;
    private final int callbackThreads;
    private volatile Threads threads;
    private boolean closed; // guarded by this

    /**
     * @param timerName       the timer thread's name
     * @param callbackPrefix  the callback threads' names, followed by {@code -1}, {@code -2}, ...
     * @param callbackThreads the most tasks that run at once
     */
    public CallbackTimer(String timerName, String callbackPrefix, int callbackThreads) {
        if (callbackThreads < 1) {
            throw new IllegalArgumentException("callback-threads must be at least 1 but was " + callbackThreads);
        }
        this.timerName = timerName;
        this.callbackPrefix = callbackPrefix;
        this.callbackThreads = callbackThreads;
    }

    @Override
    public Runnable schedule(Duration delay, Runnable task) {
        Threads running = threads();
        if (running == null) {
            return () -> { };
        }
        try {
            ScheduledFuture<?> due = running.timer.schedule(() -> running.hand(task), Math.max(0, delay.toNanos()),
                    TimeUnit.NANOSECONDS);
            return () -> due.cancel(false);
        } catch (RejectedExecutionException closedMeanwhile) {
            return () -> { };
        }
    }

    /** Stops both thread pools; tasks not run yet never run, and later schedules do nothing. */
    @Override
    public synchronized void close() {
        closed = true;
        Threads running = threads;
        if (running != null) {
            running.timer.shutdownNow();
            running.callbacks.shutdownNow();
        }
    }

    private Threads threads() {
        Threads running = threads;
        if (running != null) {
            return running;
        }
        synchronized (this) {
            if (threads == null && !closed) {
                threads = new Threads();
            }
            return threads;
        }
    }

    /** The timer and the callback pool, created together on first use. */
    private final class Threads {
        final ScheduledThreadPoolExecutor timer;
        final ThreadPoolExecutor callbacks;

        Threads() {
            timer = new ScheduledThreadPoolExecutor(1, daemon(() -> timerName));
            timer.setRemoveOnCancelPolicy(true);
            timer.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
            timer.allowCoreThreadTimeOut(true);
            AtomicInteger count = new AtomicInteger();
            callbacks = new ThreadPoolExecutor(callbackThreads, callbackThreads, IDLE_SECONDS, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), daemon(() -> callbackPrefix + "-" + count.incrementAndGet()));
            callbacks.allowCoreThreadTimeOut(true);
        }

        /** On the timer thread: hands the due task on and returns at once. */
        void hand(Runnable task) {
            try {
                callbacks.execute(() -> run(task));
            } catch (RejectedExecutionException closedMeanwhile) {
                // the registry was closed: nothing is waiting for this task any more
            }
        }

        private void run(Runnable task) {
            try {
                task.run();
            } catch (Throwable e) {
                log.warn("A timed task of {} ({}) threw; the timer carries on", timerName, task, e);
            }
        }
    }

    private static ThreadFactory daemon(Supplier<String> name) {
        return r -> {
            Thread t = new Thread(r, name.get());
            t.setDaemon(true);
            return t;
        };
    }
}
