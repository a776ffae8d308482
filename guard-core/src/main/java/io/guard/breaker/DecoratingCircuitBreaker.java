package io.guard.breaker;

import io.guard.function.CheckedRunnable;
import io.guard.function.CheckedSupplier;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The breaker's side of the permit protocol, and the executors {@link CircuitBreakerDecorators} runs Guard's own
 * breakers through: every path that acquires a permission answers it exactly once, whatever the call throws
 * ({@link Error}s included), so no path can leak a HALF_OPEN trial permit. A permission that is given back
 * (cancelled stage, ignored error) goes back to the state that granted it, so a call admitted while CLOSED can never
 * hand a HALF_OPEN an extra trial permit. Every call counts as running from its start to its answer, which is how a
 * hanging call is seen before it ends.
 *
 * <p>The synchronous executors keep the permit's parts in local variables instead of a {@link CallPermit}
 * object, so the hot path allocates nothing; asynchronous calls, which outlive the frame, use a {@link CallPermit}.
 * They are package-private: callers reach them through {@link CircuitBreakerDecorators}.
 */
abstract class DecoratingCircuitBreaker implements CircuitBreaker {

    /**
     * Acquires a permission at {@code nowNanos} (the breaker's clock) and returns the state that granted it, or
     * throws {@link CallNotPermittedException}.
     */
    abstract BreakerState grant(long nowNanos);

    /** Acquires a permission at {@code nowNanos} and returns the state that granted it, or null (counted and published). */
    abstract BreakerState tryGrant(long nowNanos);

    /** Gives a permission back to the state that granted it. */
    abstract void release(BreakerState granting);

    /** Records a successful call that took {@code durationNanos}. */
    abstract void onSuccess(long durationNanos);

    /** Records a call that returned {@code result}; the result predicate decides whether it counts as a failure. */
    abstract void onResult(long durationNanos, Object result);

    /**
     * Records a call that failed with {@code error}, classified by the configuration; an ignored error gives the
     * permission back to {@code granting}, the state that gave it. Returns whether the error counted as a failure.
     */
    abstract boolean onError(BreakerState granting, long durationNanos, Throwable error);

    /** Whether the configuration records {@code error} as a failure, by the rules {@link #onError} applies. */
    abstract boolean recordsAsFailure(Throwable error);

    /** The state in force, for the handle-less {@link CircuitBreakerPermissions}, which cannot tell who granted. */
    abstract BreakerState currentState();

    /** Records a call that ran out of time: a failure, whatever the exception rules say. */
    abstract void onTimeout(long durationNanos, TimeoutException error);

    /** Counts a call that started at {@code startNanos} as running; returns what {@link #finished} needs. */
    abstract int[] started(long startNanos);

    /** The call counted by {@link #started} has ended, on the thread that started it; before recording its outcome. */
    abstract void finishedHere(int[] cell, long startNanos);

    /** Like {@link #finishedHere}, from any thread (a permit may be answered anywhere). */
    abstract void finished(int[] cell, long startNanos);

    /** Runs {@code task} after {@code delay} on the breaker's scheduler; returns its cancellation. */
    abstract Runnable schedule(Duration delay, Runnable task);

    @Override
    public Permit tryAcquire() {
        long start = currentTimeNanos();
        BreakerState granting = tryGrant(start);
        return granting == null ? null : new CallPermit(this, granting, start);
    }

    @Override
    public Permit acquire() {
        long start = currentTimeNanos();
        return new CallPermit(this, grant(start), start);
    }

    // The executors repeat one body on purpose: folding them into one generic method behind a functional
    // interface made the 2-thread BreakerBenchmark bimodal (60 or 130-200 ns per call, by JIT run).
    <T> T executeSupplier(Supplier<T> supplier) {
        long start = currentTimeNanos();
        BreakerState granting = grant(start);
        int[] cell = started(start);
        T result;
        try {
            result = supplier.get();
        } catch (Throwable e) {
            long end = currentTimeNanos();
            finishedHere(cell, start);
            onError(granting, end - start, e);
            throw e;
        }
        long end = currentTimeNanos();
        finishedHere(cell, start);
        onResult(end - start, result);
        return result;
    }

    <T> T executeCallable(Callable<T> callable) throws Exception {
        long start = currentTimeNanos();
        BreakerState granting = grant(start);
        int[] cell = started(start);
        T result;
        try {
            result = callable.call();
        } catch (Throwable e) {
            long end = currentTimeNanos();
            finishedHere(cell, start);
            onError(granting, end - start, e);
            throw e;
        }
        long end = currentTimeNanos();
        finishedHere(cell, start);
        onResult(end - start, result);
        return result;
    }

    <T> T executeCheckedSupplier(CheckedSupplier<T> supplier) throws Throwable {
        long start = currentTimeNanos();
        BreakerState granting = grant(start);
        int[] cell = started(start);
        T result;
        try {
            result = supplier.get();
        } catch (Throwable e) {
            long end = currentTimeNanos();
            finishedHere(cell, start);
            onError(granting, end - start, e);
            throw e;
        }
        long end = currentTimeNanos();
        finishedHere(cell, start);
        onResult(end - start, result);
        return result;
    }

    void executeRunnable(Runnable runnable) {
        long start = currentTimeNanos();
        BreakerState granting = grant(start);
        int[] cell = started(start);
        try {
            runnable.run();
        } catch (Throwable e) {
            long end = currentTimeNanos();
            finishedHere(cell, start);
            onError(granting, end - start, e);
            throw e;
        }
        long end = currentTimeNanos();
        finishedHere(cell, start);
        onSuccess(end - start);
    }

    void executeCheckedRunnable(CheckedRunnable runnable) throws Throwable {
        long start = currentTimeNanos();
        BreakerState granting = grant(start);
        int[] cell = started(start);
        try {
            runnable.run();
        } catch (Throwable e) {
            long end = currentTimeNanos();
            finishedHere(cell, start);
            onError(granting, end - start, e);
            throw e;
        }
        long end = currentTimeNanos();
        finishedHere(cell, start);
        onSuccess(end - start);
    }
}
