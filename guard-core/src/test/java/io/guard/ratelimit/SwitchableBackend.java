package io.guard.ratelimit;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/** A backend that decides with a delegate until told to fail, counting the calls that reach it. */
final class SwitchableBackend implements RateLimiter {

    private final RateLimiter delegate;
    private volatile boolean failing;
    final AtomicInteger calls = new AtomicInteger();

    SwitchableBackend(RateLimiter delegate) {
        this.delegate = delegate;
    }

    void failing(boolean failing) {
        this.failing = failing;
    }

    @Override
    public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
        calls.incrementAndGet();
        if (failing) {
            // Like Redisson's timeouts, the cause's message quotes the key: it must not reach events or health.
            return CompletableFuture.failedFuture(new RateLimiterBackendException("rate limiter '" + policy.name()
                    + "': Redis could not decide", new IllegalStateException("timeout, params: [" + key + "]")));
        }
        return delegate.decide(policy, key, permits);
    }

    @Override
    public CompletionStage<Quota> inspect(RateLimitPolicy policy, String key) {
        calls.incrementAndGet();
        return failing ? CompletableFuture.failedFuture(failure(policy, key)) : delegate.inspect(policy, key);
    }

    @Override
    public CompletionStage<Void> reset(RateLimitPolicy policy, String key) {
        calls.incrementAndGet();
        return failing ? CompletableFuture.failedFuture(failure(policy, key)) : delegate.reset(policy, key);
    }

    private static RateLimiterBackendException failure(RateLimitPolicy policy, String key) {
        return new RateLimiterBackendException("rate limiter '" + policy.name() + "': Redis could not answer",
                new IllegalStateException("timeout, params: [" + key + "]"));
    }

    @Override
    public CompletionStage<List<BackendOutcome>> decideAll(List<RateLimitRequest> requests) {
        calls.incrementAndGet();
        if (failing) {
            return CompletableFuture.failedFuture(new RateLimiterBackendException("rate limiters: Redis could not "
                    + "decide", new IllegalStateException("timeout")));
        }
        return delegate.decideAll(requests);
    }

    @Override
    public String backendName() {
        return "switchable";
    }

    @Override
    public void close() {
        delegate.close();
    }
}
