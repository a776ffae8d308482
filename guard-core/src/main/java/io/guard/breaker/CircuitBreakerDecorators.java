package io.guard.breaker;

import io.guard.function.CheckedFunction;
import io.guard.function.CheckedRunnable;
import io.guard.function.CheckedSupplier;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs or wraps a call through a breaker with the bookkeeping done: a permit is taken before the call and answered
 * exactly once after it, whatever the call throws ({@link Error}s included), so no call leaks a HALF_OPEN trial
 * permit. Static helpers over {@link CircuitBreaker.Permit}, as Resilience4j's decorators are helpers over its one
 * protocol ({@code CircuitBreaker.decorateSupplier(breaker, supplier)} there,
 * {@code CircuitBreakerDecorators.decorateSupplier(breaker, supplier)} here).
 *
 * <p>A refused call throws {@link CallNotPermittedException} (a decorated {@code CompletionStage} fails with it
 * instead). For a breaker made by {@link CircuitBreaker#of} or a {@link CircuitBreakerRegistry}, the synchronous
 * helpers take a path that keeps the permit in local variables, so a decorated call allocates nothing.
 */
public final class CircuitBreakerDecorators {

    private CircuitBreakerDecorators() {
    }

    /** Runs {@code supplier} through {@code breaker}; its value is recorded through the result predicate. */
    public static <T> T executeSupplier(CircuitBreaker breaker, Supplier<T> supplier) {
        if (breaker instanceof DecoratingCircuitBreaker own) {
            return own.executeSupplier(supplier);
        }
        return throughPermit(breaker, supplier::get, true);
    }

    /** Runs {@code callable} through {@code breaker}; its checked exceptions reach the caller unchanged. */
    public static <T> T executeCallable(CircuitBreaker breaker, Callable<T> callable) throws Exception {
        if (breaker instanceof DecoratingCircuitBreaker own) {
            return own.executeCallable(callable);
        }
        return throughPermit(breaker, callable::call, true);
    }

    /** Runs {@code runnable} through {@code breaker}; returning counts as a success. */
    public static void executeRunnable(CircuitBreaker breaker, Runnable runnable) {
        if (breaker instanceof DecoratingCircuitBreaker own) {
            own.executeRunnable(runnable);
            return;
        }
        throughPermit(breaker, () -> {
            runnable.run();
            return null;
        }, false);
    }

    /** Like {@link #executeSupplier}, for a supplier that may throw anything. */
    public static <T> T executeCheckedSupplier(CircuitBreaker breaker, CheckedSupplier<T> supplier) throws Throwable {
        if (breaker instanceof DecoratingCircuitBreaker own) {
            return own.executeCheckedSupplier(supplier);
        }
        return throughPermit(breaker, supplier::get, true);
    }

    /** Like {@link #executeRunnable}, for a runnable that may throw anything. */
    public static void executeCheckedRunnable(CircuitBreaker breaker, CheckedRunnable runnable) throws Throwable {
        if (breaker instanceof DecoratingCircuitBreaker own) {
            own.executeCheckedRunnable(runnable);
            return;
        }
        throughPermit(breaker, () -> {
            runnable.run();
            return null;
        }, false);
    }

    public static <T> Supplier<T> decorateSupplier(CircuitBreaker breaker, Supplier<T> supplier) {
        return () -> executeSupplier(breaker, supplier);
    }

    public static <T> Callable<T> decorateCallable(CircuitBreaker breaker, Callable<T> callable) {
        return () -> executeCallable(breaker, callable);
    }

    public static Runnable decorateRunnable(CircuitBreaker breaker, Runnable runnable) {
        return () -> executeRunnable(breaker, runnable);
    }

    public static <T> CheckedSupplier<T> decorateCheckedSupplier(CircuitBreaker breaker, CheckedSupplier<T> supplier) {
        return () -> executeCheckedSupplier(breaker, supplier);
    }

    public static CheckedRunnable decorateCheckedRunnable(CircuitBreaker breaker, CheckedRunnable runnable) {
        return () -> executeCheckedRunnable(breaker, runnable);
    }

    public static <T, R> CheckedFunction<T, R> decorateCheckedFunction(CircuitBreaker breaker,
                                                                       CheckedFunction<T, R> function) {
        return input -> executeCheckedSupplier(breaker, () -> function.apply(input));
    }

    public static <T, R> Function<T, R> decorateFunction(CircuitBreaker breaker, Function<T, R> function) {
        return input -> executeSupplier(breaker, () -> function.apply(input));
    }

    public static <T> Consumer<T> decorateConsumer(CircuitBreaker breaker, Consumer<T> consumer) {
        return input -> executeRunnable(breaker, () -> consumer.accept(input));
    }

    /**
     * Decorates an asynchronous call: the outcome is recorded when the stage completes; a stage that is
     * cancelled releases its permission. With a {@link CircuitBreakerConfig#timeout() timeout}, a stage still
     * running when it passes is completed with a {@link java.util.concurrent.TimeoutException} (which cancels the
     * work behind a {@code CompletableFuture} only as far as that work checks), recorded as a failure whatever
     * the exception rules say.
     *
     * <p>A refusal and a supplier that throws both come back as a failed stage rather than a thrown exception, so
     * asynchronous callers handle every failure in one place. The caller gets the supplier's own stage, so
     * cancelling it reaches the work and gives the permission back; with a timeout, a stage that is not a
     * {@link CompletableFuture} is answered through a new future the timeout can complete.
     */
    public static <T> Supplier<CompletionStage<T>> decorateCompletionStage(
            CircuitBreaker breaker, Supplier<? extends CompletionStage<T>> supplier) {
        return () -> {
            CircuitBreaker.Permit permit = breaker.tryAcquire();
            if (permit == null) {
                return CompletableFuture.failedFuture(CallNotPermittedException.createCallNotPermittedException(breaker));
            }
            CompletionStage<T> stage;
            try {
                stage = supplier.get();
                if (stage == null) {
                    throw new NullPointerException("circuit breaker '" + breaker.name()
                            + "': the decorated supplier returned a null CompletionStage");
                }
            } catch (Throwable e) {
                permit.onError(e);
                return CompletableFuture.failedFuture(e);
            }
            if (breaker.config().timeout().isZero()) {
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

    /** A call that may throw {@code E}: lets one permit path serve suppliers, callables and checked calls alike. */
    @FunctionalInterface
    private interface Call<T, E extends Throwable> {
        T call() throws E;
    }

    /**
     * The protocol written out, for a {@link CircuitBreaker} that is not Guard's own: {@code withResult} false
     * (a runnable) records a plain success, true hands the value to the result predicate.
     */
    private static <T, E extends Throwable> T throughPermit(CircuitBreaker breaker, Call<T, E> call,
                                                            boolean withResult) throws E {
        CircuitBreaker.Permit permit = breaker.acquire();
        T result;
        try {
            result = call.call();
        } catch (Throwable e) {
            permit.onError(e);
            throw e;
        }
        if (withResult) {
            permit.onResult(result);
        } else {
            permit.onSuccess();
        }
        return result;
    }

    /** Cancels the work behind {@code stage} if it can be reached; a stage without a future has nothing to cancel. */
    private static void cancel(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().cancel(true);
        } catch (UnsupportedOperationException e) {
            // a stage that cannot be converted exposes no way to stop its work
        }
    }

    private static void answer(CircuitBreaker.Permit permit, Object result, Throwable error) {
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
