package io.guard.ratelimit;

import io.guard.breaker.CircuitBreaker;
import io.guard.time.CallbackTimer;
import io.guard.time.Scheduler;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * How long a {@link FailoverRateLimiter}'s backend calls may take, and the timer that watches them: the timeout (the
 * breaker's), the patience limit ({@value FailoverRateLimiter#PATIENCE} timeouts), whether this client is stalled,
 * and where a given-up call is answered. Calls are timed on the breaker's clock, the one its permits start on, so a
 * test that moves the breaker's {@code ManualClock} moves the timeouts too.
 */
final class CallDeadlines implements AutoCloseable {

    /**
     * The names of the threads that run a failover's own timeouts and answer the calls it gives up (see
     * {@link CallbackTimer}), followed by a number.
     */
    static final String ANSWER_THREADS = "guard-rate-limit-answer";

    /** At most this many timeouts and answers run at once; more wait in order. */
    static final int ANSWERING_AT_ONCE = 4;

    private final CircuitBreaker breaker;
    private final Scheduler scheduler;
    private final CallbackTimer ownTimer;
    private final ClientLoad clientLoad;
    private final Duration timeout;
    private final long timeoutNanos;

    /** @param scheduler runs the timeouts on the breaker's clock; {@code null}: a timer thread of its own */
    CallDeadlines(CircuitBreaker breaker, Scheduler scheduler, ClientLoad clientLoad) {
        this.breaker = breaker;
        this.ownTimer = scheduler == null
                ? new CallbackTimer("guard-rate-limit-timeout", ANSWER_THREADS, ANSWERING_AT_ONCE) : null;
        this.scheduler = scheduler == null ? ownTimer : scheduler;
        this.clientLoad = clientLoad;
        this.timeout = breaker.config().timeout();
        this.timeoutNanos = timeout.toNanos();
    }

    long timeoutNanos() {
        return timeoutNanos;
    }

    long patienceNanos() {
        return timeoutNanos * FailoverRateLimiter.PATIENCE;
    }

    /**
     * Whether this client shows it may be the one to blame for a late reply: the timer fired more than a quarter of
     * the timeout late (this JVM was paused or starved), or the machine's CPU is saturated (see {@link ClientLoad}).
     */
    boolean stalled(long lateNanos) {
        return lateNanos > timeoutNanos / 4 || clientLoad.saturated(nanoTime());
    }

    /** The breaker's clock, which {@link CircuitBreaker.Permit#startNanos()} reads. */
    long nanoTime() {
        return breaker.currentTimeNanos();
    }

    /**
     * Runs {@code task} after the timeout (a Duration made once, not per decision) and returns what cancels it;
     * {@code null}, and nothing scheduled, when calls have no timeout.
     */
    Runnable scheduleTimeout(Runnable task) {
        return timeoutNanos > 0 ? scheduler.schedule(timeout, task) : null;
    }

    Runnable schedule(long delayNanos, Runnable task) {
        return scheduler.schedule(Duration.ofNanos(delayNanos), task);
    }

    /**
     * Runs {@code task}, the answer to a call given up, off the timer's thread: at once when the timeout runs on a
     * {@link CallbackTimer} (the failover's own, or the application's one timer), which runs its tasks on callback
     * threads of its own; for any other scheduler (a test's clock, which runs timeouts on the thread that advances
     * it) on CompletableFuture's default asynchronous executor.
     */
    void answerLater(Runnable task) {
        if (scheduler instanceof CallbackTimer) {
            task.run();
        } else {
            CompletableFuture.runAsync(task);
        }
    }

    /** Stops the timer thread if these deadlines started one; an injected scheduler stays with its owner. */
    @Override
    public void close() {
        if (ownTimer != null) {
            ownTimer.close();
        }
    }
}
