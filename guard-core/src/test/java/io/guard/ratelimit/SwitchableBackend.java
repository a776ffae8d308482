package io.guard.ratelimit;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A backend that decides with a delegate until told to fail or to hang (its calls then wait in {@link #unanswered}
 * for the test to answer them, late), counting the calls that reach it.
 */
final class SwitchableBackend implements RateLimiter {

    private final RateLimiter delegate;
    private volatile boolean failing;
    private volatile boolean hanging;
    private volatile boolean shortOfReplicas;
    final List<CompletableFuture<BackendOutcome>> unanswered = new CopyOnWriteArrayList<>();
    final AtomicInteger calls = new AtomicInteger();
    /**
     * What {@link #pulse()} reports: a test moves it to say "the backend answered some other call"; 1 to begin with,
     * a backend that has answered before (0 is one still warming up).
     */
    final AtomicLong replies = new AtomicLong(1);

    SwitchableBackend(RateLimiter delegate) {
        this.delegate = delegate;
    }

    void failing(boolean failing) {
        this.failing = failing;
    }

    void hanging(boolean hanging) {
        this.hanging = hanging;
    }

    /** Admissions of limits that wait for replicas are decided, then fail as no replica acknowledged them. */
    void shortOfReplicas(boolean shortOfReplicas) {
        this.shortOfReplicas = shortOfReplicas;
    }

    @Override
    public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
        calls.incrementAndGet();
        if (hanging) {
            CompletableFuture<BackendOutcome> reply = new CompletableFuture<>();
            unanswered.add(reply);
            return reply;
        }
        if (failing) {
            // Like Redisson's timeouts, the cause's message quotes the key: it must not reach events or health.
            return CompletableFuture.failedFuture(new RateLimiterBackendException("rate limiter '" + policy.name()
                    + "': Redis could not decide", new IllegalStateException("timeout, params: [" + key + "]")));
        }
        if (shortOfReplicas && policy.replicaWait().waits()) {
            return delegate.decide(policy, key, permits).thenApply(outcome -> {
                if (outcome.decision().allowed()) {
                    throw new ReplicaShortfallException("rate limiter '" + policy.name() + "': the spend was "
                            + "acknowledged by 0 of " + policy.replicaWait().replicas() + " replicas", null);
                }
                return outcome;
            });
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

    @Override
    public CompletionStage<Quota> charge(RateLimitPolicy policy, String key, long permits) {
        calls.incrementAndGet();
        return failing ? CompletableFuture.failedFuture(failure(policy, key)) : delegate.charge(policy, key, permits);
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
    public BackendPulse pulse() {
        return replies::get;
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
