package io.guard.breaker;

import io.guard.function.CheckedFunction;
import io.guard.function.CheckedRunnable;
import io.guard.function.CheckedSupplier;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The executors and decorators, written once on top of the permit protocol: every path that acquires a permission
 * answers it exactly once, whatever the call throws ({@link Error}s included), so no path can leak a HALF_OPEN
 * trial permit. A permission that is given back (cancelled stage, ignored error) goes back to the state that
 * granted it, so a call admitted while CLOSED can never hand a HALF_OPEN an extra trial permit. Every call counts
 * as running from its start to its answer, which is how a hanging call is seen before it ends.
 *
 * <p>The synchronous executors keep the permit's parts in local variables instead of a {@link CallPermit}
 * object, so the hot path allocates nothing; asynchronous calls, which outlive the frame, use a {@link CallPermit}.
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

    /** Like {@link #onError(long, Throwable)}, an ignored error giving the permission back to its state. */
    abstract boolean onError(BreakerState granting, long durationNanos, Throwable error);

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
    @Override
    public <T> T executeSupplier(Supplier<T> supplier) {
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

    @Override
    public <T> T executeCallable(Callable<T> callable) throws Exception {
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

    @Override
    public <T> T executeCheckedSupplier(CheckedSupplier<T> supplier) throws Throwable {
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

    @Override
    public void executeRunnable(Runnable runnable) {
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

    @Override
    public void executeCheckedRunnable(CheckedRunnable runnable) throws Throwable {
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

    @Override
    public <T> Supplier<T> decorateSupplier(Supplier<T> supplier) {
        return () -> executeSupplier(supplier);
    }

    @Override
    public <T> Callable<T> decorateCallable(Callable<T> callable) {
        return () -> executeCallable(callable);
    }

    @Override
    public Runnable decorateRunnable(Runnable runnable) {
        return () -> executeRunnable(runnable);
    }

    @Override
    public <T> CheckedSupplier<T> decorateCheckedSupplier(CheckedSupplier<T> supplier) {
        return () -> executeCheckedSupplier(supplier);
    }

    @Override
    public CheckedRunnable decorateCheckedRunnable(CheckedRunnable runnable) {
        return () -> executeCheckedRunnable(runnable);
    }

    @Override
    public <T, R> CheckedFunction<T, R> decorateCheckedFunction(CheckedFunction<T, R> function) {
        return input -> executeCheckedSupplier(() -> function.apply(input));
    }

    @Override
    public <T, R> Function<T, R> decorateFunction(Function<T, R> function) {
        return input -> executeSupplier(() -> function.apply(input));
    }

    @Override
    public <T> Consumer<T> decorateConsumer(Consumer<T> consumer) {
        return input -> executeRunnable(() -> consumer.accept(input));
    }

    /**
     * A refusal and a supplier that throws both come back as a failed stage rather than a thrown exception, so
     * asynchronous callers handle every failure in one place. The caller gets the supplier's own stage, so
     * cancelling it reaches the work and gives the permission back; with a timeout, a stage that is not a
     * {@link CompletableFuture} is answered through a new future the timeout can complete.
     */
    @Override
    public <T> Supplier<CompletionStage<T>> decorateCompletionStage(Supplier<? extends CompletionStage<T>> supplier) {
        return () -> {
            CallPermit permit = (CallPermit) tryAcquire();
            if (permit == null) {
                return CompletableFuture.failedFuture(CallNotPermittedException.createCallNotPermittedException(this));
            }
            CompletionStage<T> stage;
            try {
                stage = supplier.get();
                if (stage == null) {
                    throw new NullPointerException("circuit breaker '" + name()
                            + "': the decorated supplier returned a null CompletionStage");
                }
            } catch (Throwable e) {
                permit.onError(e);
                return CompletableFuture.failedFuture(e);
            }
            if (config().timeout().isZero()) {
                stage.whenComplete((result, error) -> answer(permit, result, error));
                return stage;
            }
            CompletableFuture<T> answered = stage instanceof CompletableFuture<T> own ? own : new CompletableFuture<>();
            permit.whenTimedOut(error -> {
                answered.completeExceptionally(error);
                cancel(stage);
            });
            stage.whenComplete((result, error) -> {
                answer(permit, result, error);
                if (answered != stage) {
                    if (error != null) {
                        answered.completeExceptionally(error);
                    } else {
                        answered.complete(result);
                    }
                }
            });
            return answered;
        };
    }

    /** Cancels the work behind {@code stage} if it can be reached; a stage without a future has nothing to cancel. */
    private static void cancel(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().cancel(true);
        } catch (UnsupportedOperationException e) {
            // a stage that cannot be converted exposes no way to stop its work
        }
    }

    private static void answer(CallPermit permit, Object result, Throwable error) {
        if (error == null) {
            permit.onResult(result);
            return;
        }
        Throwable cause = unwrap(error);
        if (cause instanceof CancellationException) {
            permit.release();
        } else {
            permit.onError(cause);
        }
    }

    private static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
