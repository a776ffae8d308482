package io.guard.ratelimit.lease;

import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiter;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** The exact backend below the leases: allows every call, answering {@link #remaining}, and counts them. */
final class CountingExact implements RateLimiter {

    int calls;
    long remaining = 1_000;
    boolean closed;

    @Override
    public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
        calls++;
        return CompletableFuture.completedFuture(BackendOutcome.decided(new Decision(true, remaining, Duration.ZERO,
                Duration.ZERO, policy.rate())));
    }

    @Override
    public String backendName() {
        return "exact";
    }

    @Override
    public void close() {
        closed = true;
    }
}
