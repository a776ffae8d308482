package io.guard.spring.test;

import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A limiter whose windows never pass: each (limit, key) grants {@code rate} permits in total. Enough to test what
 * the aspects do with decisions, independently of any algorithm or clock; records every request it was asked.
 */
public final class CountingRateLimiter implements RateLimiter {

    /** One request as the aspect made it. */
    public record Request(String limit, String key, long permits, Duration maxWait) {
    }

    private final Map<String, Long> used = new ConcurrentHashMap<>();
    private final List<Request> requests = java.util.Collections.synchronizedList(new ArrayList<>());

    private synchronized Decision decideNow(RateLimitPolicy policy, String key, long permits, Duration maxWait) {
        requests.add(new Request(policy.name(), key, permits, maxWait));
        long inUse = used.getOrDefault(policy.name() + "|" + key, 0L);
        if (inUse + permits > policy.rate()) {
            return new Decision(false, policy.rate() - inUse, policy.interval(), policy.interval(), policy.rate());
        }
        used.put(policy.name() + "|" + key, inUse + permits);
        return new Decision(true, policy.rate() - inUse - permits, Duration.ZERO, policy.interval(), policy.rate());
    }

    @Override
    public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
        return CompletableFuture.completedFuture(BackendOutcome.decided(decideNow(policy, key, permits,
                Duration.ZERO)));
    }

    /** The requests made so far, in order. */
    public List<Request> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    @Override
    public String backendName() {
        return "counting";
    }

    @Override
    public void close() {
    }
}
