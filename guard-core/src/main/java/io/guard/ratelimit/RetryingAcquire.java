package io.guard.ratelimit;

import io.guard.time.Scheduler;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The waiting part of {@link RateLimiterRegistry#acquire}, shared by the backends: try; when refused, come back after
 * the refusal's exact {@code retryAfter} on a timer, as long as that still falls within {@code maxWait}. Between tries
 * nothing is held: no thread sleeps and no connection stays open, so thousands of waiters cost a timer entry each.
 */
final class RetryingAcquire {

    private final Scheduler timer;
    private final LongSupplier nanoTime;

    /**
     * @param timer    runs the retries; owned by the caller
     * @param nanoTime measures the elapsed wait ({@code System::nanoTime} outside tests)
     */
    public RetryingAcquire(Scheduler timer, LongSupplier nanoTime) {
        this.timer = Objects.requireNonNull(timer, "timer");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /**
     * Runs {@code attempt} until it is allowed or the next retry would fall after {@code maxWait}; then completes
     * with the last decision. An attempt that fails completes the result exceptionally.
     *
     * @throws IllegalArgumentException if {@code maxWait} is negative
     */
    public CompletionStage<Decision> acquire(Supplier<CompletionStage<Decision>> attempt, Duration maxWait) {
        return acquire(attempt, Function.identity(), maxWait);
    }

    /**
     * Like {@link #acquire(Supplier, Duration)} for attempts that answer more than a decision (for example whether
     * a fall-back decided): {@code decisionOf} extracts the decision that steers the retries.
     */
    public <T> CompletionStage<T> acquire(Supplier<? extends CompletionStage<T>> attempt,
                                          Function<? super T, Decision> decisionOf, Duration maxWait) {
        Objects.requireNonNull(maxWait, "maxWait");
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait must not be negative but was " + maxWait);
        }
        long deadline = nanoTime.getAsLong() + saturatedNanos(maxWait);
        CompletableFuture<T> result = new CompletableFuture<>();
        tryOnce(attempt, decisionOf, deadline, result);
        return result;
    }

    private <T> void tryOnce(Supplier<? extends CompletionStage<T>> attempt, Function<? super T, Decision> decisionOf,
                             long deadline, CompletableFuture<T> result) {
        CompletionStage<T> stage;
        try {
            stage = attempt.get();
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return;
        }
        stage.whenComplete((answer, error) -> {
            if (error != null) {
                result.completeExceptionally(error);
                return;
            }
            Decision decision = decisionOf.apply(answer);
            long retryNanos = saturatedNanos(decision.retryAfter());
            long left = deadline - nanoTime.getAsLong();
            if (decision.allowed() || retryNanos > left) {
                result.complete(answer);
                return;
            }
            timer.schedule(Duration.ofNanos(retryNanos), () -> tryOnce(attempt, decisionOf, deadline, result));
        });
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 2;
        }
    }
}
