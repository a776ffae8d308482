package io.guard.breaker;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * The executors and decorators, written once on top of the permission API: every path that acquires a permission
 * answers it exactly once, whatever the call throws ({@link Error}s included), so no path can leak a HALF_OPEN
 * trial permit. A permission that is given back (cancelled stage, ignored error) goes back to the state that
 * granted it, so a call admitted while CLOSED can never hand a HALF_OPEN an extra trial permit.
 */
abstract class DecoratingCircuitBreaker implements CircuitBreaker {

    /** Acquires a permission and returns the state that granted it, or throws {@link CallNotPermittedException}. */
    abstract BreakerState grant();

    /** Acquires a permission and returns the state that granted it, or null (counted and published). */
    abstract BreakerState tryGrant();

    /** Gives a permission back to the state that granted it. */
    abstract void release(BreakerState granting);

    /** Like {@link #onError(long, Throwable)}, an ignored error giving the permission back to its state. */
    abstract void onError(BreakerState granting, long durationNanos, Throwable error);

    // executeSupplier and executeCallable repeat one body on purpose: folding them into one generic method behind a
    // functional interface made the 2-thread BreakerBenchmark bimodal (60 or 130-200 ns per call, by JIT run).
    @Override
    public <T> T executeSupplier(Supplier<T> supplier) {
        BreakerState granting = grant();
        long start = currentTimeNanos();
        T result;
        try {
            result = supplier.get();
        } catch (Throwable e) {
            onError(granting, currentTimeNanos() - start, e);
            throw e;
        }
        onResult(currentTimeNanos() - start, result);
        return result;
    }

    @Override
    public <T> T executeCallable(Callable<T> callable) throws Exception {
        BreakerState granting = grant();
        long start = currentTimeNanos();
        T result;
        try {
            result = callable.call();
        } catch (Throwable e) {
            onError(granting, currentTimeNanos() - start, e);
            throw e;
        }
        onResult(currentTimeNanos() - start, result);
        return result;
    }

    @Override
    public void executeRunnable(Runnable runnable) {
        BreakerState granting = grant();
        long start = currentTimeNanos();
        try {
            runnable.run();
        } catch (Throwable e) {
            onError(granting, currentTimeNanos() - start, e);
            throw e;
        }
        onSuccess(currentTimeNanos() - start);
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

    /**
     * A refusal and a supplier that throws both come back as a failed stage rather than a thrown exception, so
     * asynchronous callers handle every failure in one place. The caller gets the supplier's own stage, so
     * cancelling it reaches the work and gives the permission back.
     */
    @Override
    public <T> Supplier<CompletionStage<T>> decorateCompletionStage(Supplier<? extends CompletionStage<T>> supplier) {
        return () -> {
            BreakerState granting = tryGrant();
            if (granting == null) {
                return CompletableFuture.failedFuture(
                        new CallNotPermittedException(name(), state(), remainingOpenTime()));
            }
            long start = currentTimeNanos();
            CompletionStage<T> stage;
            try {
                stage = supplier.get();
                if (stage == null) {
                    throw new NullPointerException("circuit breaker '" + name()
                            + "': the decorated supplier returned a null CompletionStage");
                }
            } catch (Throwable e) {
                onError(granting, currentTimeNanos() - start, e);
                return CompletableFuture.failedFuture(e);
            }
            stage.whenComplete((result, error) -> {
                long duration = currentTimeNanos() - start;
                if (error == null) {
                    onResult(duration, result);
                    return;
                }
                Throwable cause = unwrap(error);
                if (cause instanceof CancellationException) {
                    release(granting);
                } else {
                    onError(granting, duration, cause);
                }
            });
            return stage;
        };
    }

    private static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
