package io.guard.ratelimit;

import io.guard.breaker.CircuitBreaker;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One call to the backend, answered exactly once: by the backend's reply, or by the failure policy when the
 * backend is too slow. The rule for "too slow" tells a sick backend from a busy client (see
 * {@link FailoverRateLimiter}): when the timeout passes, the call is the backend's failure only if the backend was
 * silent the whole time (its {@link BackendPulse} did not move), had answered before (the client is not still warming
 * up) and the client shows no stall (the timer fired on time, the CPU is not saturated); otherwise the reply may be
 * late in the client, and the call waits on, up to the patience limit. A call given up there is recorded against the
 * backend only if the backend was silent all along; else its permit is released, so a busy client never opens the
 * breaker.
 *
 * <p>The first of the reply and the timer answers (the flag this class extends; this object is both the timer's
 * task and the reply's handler, so no task or handler object is made per call); the other does nothing, so a late reply is never applied.
 */
final class WatchedCall<T> extends AtomicBoolean implements Runnable, BiConsumer<T, Throwable> {

    private static final long serialVersionUID = 1L;

    private final FailoverRateLimiter owner;
    private final CallDeadlines deadlines;
    private final CircuitBreaker.Permit permit;
    private final CompletableFuture<T> pending;
    private final CompletableFuture<T> answer = new CompletableFuture<>();
    private final Function<RateLimiterBackendException, CompletionStage<T>> fallBack;
    private final Supplier<String> prefix;
    private final long repliesAtStart;
    private volatile Runnable cancelTimer;

    WatchedCall(FailoverRateLimiter owner, CircuitBreaker.Permit permit, CompletableFuture<T> pending,
                long repliesAtStart, Function<RateLimiterBackendException, CompletionStage<T>> fallBack,
                Supplier<String> prefix) {
        this.owner = owner;
        this.deadlines = owner.deadlines();
        this.permit = permit;
        this.pending = pending;
        this.repliesAtStart = repliesAtStart;
        this.fallBack = fallBack;
        this.prefix = prefix;
    }

    /** Arms the timeout (unless the reply is in already) and returns what the caller will get. */
    CompletableFuture<T> watch() {
        if (!pending.isDone()) {
            Runnable cancel = deadlines.scheduleTimeout(this); // run() below: no task object made per call
            if (cancel != null) {
                cancelTimer = cancel;
                if (get()) {
                    cancel.run(); // answered while the timer was being armed
                }
            }
        }
        pending.whenComplete(this); // accept() below
        return answer;
    }

    private void arm(long delayNanos, Runnable task) {
        cancelTimer = deadlines.schedule(delayNanos, task);
        if (get()) {
            cancelTimer.run(); // answered while the timer was being armed
        }
    }

    /** The reply (or the backend's failure) is in. */
    @Override
    public void accept(T result, Throwable error) {
        if (!compareAndSet(false, true)) {
            return;
        }
        Runnable cancel = cancelTimer;
        if (cancel != null) {
            cancel.run();
        }
        if (error == null) {
            permit.onSuccess();
            owner.succeeded();
            answer.complete(result);
            return;
        }
        Throwable cause = Failures.unwrap(error);
        if (!(cause instanceof RateLimiterBackendException backendFailure)) {
            permit.release();
            answer.completeExceptionally(cause);
            return;
        }
        if (backendFailure instanceof ReplicaShortfallException) {
            permit.onSuccess(); // the backend answered: only this admission lacks its replicas
            owner.succeeded();
        } else {
            permit.onError(backendFailure);
            owner.failed(backendFailure);
        }
        relay(fallBack.apply(backendFailure), answer);
    }

    /** The timeout passed: the backend's failure now, or wait on for a reply that is late in the client. */
    @Override
    public void run() {
        if (get()) {
            return;
        }
        long waited = deadlines.nanoTime() - permit.startNanos();
        // Cold: the backend has never answered (the client is connecting, loading scripts, compiling its code).
        boolean cold = repliesAtStart == 0;
        if (silent() && !cold && !deadlines.stalled(waited - deadlines.timeoutNanos())) {
            giveUp(true, deadlines.timeoutNanos());
            return;
        }
        arm(Math.max(0, deadlines.patienceNanos() - waited), this::onPatienceLost);
    }

    private void onPatienceLost() {
        giveUp(silent(), deadlines.patienceNanos());
    }

    private boolean silent() {
        return owner.pulse().replies() == repliesAtStart;
    }

    /**
     * Answers with the failure policy; a failure for the breaker only when the backend's silence was the cause,
     * else the permit goes back unrecorded.
     */
    private void giveUp(boolean backendsFault, long afterNanos) {
        if (!compareAndSet(false, true)) {
            return;
        }
        pending.cancel(false); // a backend that has not sent the call yet drops it
        long millis = afterNanos / 1_000_000;
        TimeoutException timeout = new TimeoutException(backendsFault
                ? "no reply from the backend within " + millis + " ms"
                : "no reply within " + millis + " ms, while the backend answered other calls (a busy client)");
        RateLimiterBackendException failure = new RateLimiterBackendException(prefix.get() + "backend "
                + owner.backendName() + " did not answer within " + millis + " ms", timeout);
        if (backendsFault) {
            permit.onTimeout(timeout);
        } else {
            permit.release();
        }
        owner.failed(failure);
        // Off the timer's thread: whatever the caller chains on the answer must not hold up other timeouts.
        deadlines.answerLater(() -> {
            try {
                relay(fallBack.apply(failure), answer);
            } catch (RuntimeException | Error e) {
                answer.completeExceptionally(Failures.unwrap(e));
            }
        });
    }

    static <T> void relay(CompletionStage<T> from, CompletableFuture<T> to) {
        from.whenComplete((value, error) -> {
            if (error == null) {
                to.complete(value);
            } else {
                to.completeExceptionally(Failures.unwrap(error));
            }
        });
    }
}
