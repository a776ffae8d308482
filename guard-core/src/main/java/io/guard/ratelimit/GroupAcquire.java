package io.guard.ratelimit;

import io.guard.ratelimit.RateLimiterRegistry.Limit;
import io.guard.time.Scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@link RateLimiterRegistry#acquireAll}: several limits of one call decided all-or-nothing, retried as a group while
 * {@code maxWait} allows, and only the final try recorded. Apart from the single-limit path because a group is
 * resolved, retried and counted as a whole.
 */
final class GroupAcquire {

    private final RateLimiter backend;
    private final RegisteredLimits limits;
    private final DecisionRecorder recorder;
    private final Scheduler timer;
    private final LongSupplier nanoTime;

    GroupAcquire(RateLimiter backend, RegisteredLimits limits, DecisionRecorder recorder, Scheduler timer,
                 LongSupplier nanoTime) {
        this.backend = backend;
        this.limits = limits;
        this.recorder = recorder;
        this.timer = timer;
        this.nanoTime = nanoTime;
    }

    /** See {@link RateLimiterRegistry#acquireAll}. */
    CompletionStage<List<Decision>> acquireAll(List<RateLimitRequest> requests, Duration maxWait) {
        if (requests.isEmpty()) {
            return CompletableFuture.completedFuture(List.of()); // nothing to decide, count or wait for: allowed
        }
        List<Limit> group = new ArrayList<>(requests.size());
        List<RateLimitRequest> resolved = new ArrayList<>(requests.size());
        try {
            for (RateLimitRequest request : requests) {
                Limit limit = limits.require(request.policy().name());
                limit.policy().checkPermits(request.permits());
                group.add(limit);
                resolved.add(new RateLimitRequest(limit.policy(), request.key(), request.permits()));
            }
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        AtomicLong lastStart = new AtomicLong();
        Supplier<CompletionStage<List<BackendOutcome>>> attempt = () -> {
            lastStart.set(nanoTime.getAsLong());
            return Failures.stageOf(() -> backend.decideAll(resolved));
        };
        CompletionStage<List<BackendOutcome>> decided = maxWait.isZero() ? attempt.get()
                : new RetryingAcquire(timer, nanoTime).acquire(attempt, GroupAcquire::verdict, maxWait);
        return decided.handle((outcomes, error) -> {
            long latency = nanoTime.getAsLong() - lastStart.get();
            if (error != null) {
                group.forEach(limit -> recorder.record(limit, null, error, latency));
                throw error instanceof CompletionException c ? c : new CompletionException(error);
            }
            boolean allowed = outcomes.stream().allMatch(outcome -> outcome.decision().allowed());
            for (int i = 0; i < outcomes.size(); i++) {
                if (allowed || !outcomes.get(i).decision().allowed()) {
                    recorder.record(group.get(i), outcomes.get(i), null, latency);
                }
            }
            return outcomes.stream().map(BackendOutcome::decision).toList();
        });
    }

    private static Decision verdict(List<BackendOutcome> outcomes) {
        List<Decision> decisions = outcomes.stream().map(BackendOutcome::decision).toList();
        return decisions.get(Decision.answering(decisions));
    }
}
