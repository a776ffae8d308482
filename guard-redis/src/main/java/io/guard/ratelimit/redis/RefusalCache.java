package io.guard.ratelimit.redis;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers refusals for a while, so a key that is hammered while over its limit (the abuse case a limiter exists
 * for) is refused in process instead of costing Redis a script per request.
 *
 * <p>Why it is safe: under all three algorithms nothing but the passage of time frees permits while the keys are
 * left alone (other callers only take more), so a request refused at {@code t} with {@code retryAfter r} is refused
 * again before {@code t + r}, for the same policy and at least as many permits. The entry is timed from when the
 * request was <em>sent</em>, before Redis read its clock, so it lapses no later than the true instant.
 *
 * <p>That premise breaks when someone else frees permits: a reset ({@link RedisRateLimiter#reset}, which reaches
 * every instance and calls {@link #forget}), a manual {@code DEL}, or another instance deciding with a shorter
 * interval during a rolling change. So a refusal is never trusted for more than {@link #MAX_TRUST} either: without a
 * reset message, an instance refuses what Redis would admit for at most that long.
 *
 * <p>The cached refusal repeats the original {@code remaining} and {@code resetAfter}. Entries are bounded in
 * number; when full, a few entries are sampled and the expired ones, else the one lapsing first, make room: a
 * constant cost per refusal on the client's network thread, never a scan of the whole cache.
 */
final class RefusalCache {

    /** The longest a refusal is repeated without asking Redis again, whatever its {@code retryAfter}. */
    static final long MAX_TRUST_MICROS = 1_000_000;
    /** Entries looked at to make room when full. */
    private static final int SAMPLE = 8;

    /**
     * {@code limit} is the encoded, length-bounded hash tag of the limiter and key, never the raw key. Not a record:
     * its hash leaves the policy out (the tag names the limiter already), so a look-up hashes no policy, and equal
     * policies are mostly the same instance, compared first.
     */
    private static final class Request {
        private final RateLimitPolicy policy;
        private final String limit;
        private final long permits;

        Request(RateLimitPolicy policy, String limit, long permits) {
            this.policy = policy;
            this.limit = limit;
            this.permits = permits;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Request that && permits == that.permits && limit.equals(that.limit)
                    && (policy == that.policy || policy.equals(that.policy));
        }

        @Override
        public int hashCode() {
            return 31 * limit.hashCode() + Long.hashCode(permits);
        }
    }

    /** Times in the caller's microseconds; {@code until} is when Redis must decide again. */
    private record Refusal(long until, long retryAt, long resetAt, long remaining) {
    }

    private final int capacity;
    private final Map<Request, Refusal> refusals = new ConcurrentHashMap<>();

    /** @param capacity the most refusals remembered at once; 0 disables the cache */
    RefusalCache(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("refusal cache size must not be negative but was " + capacity);
        }
        this.capacity = capacity;
    }

    /** The remembered refusal of this request at {@code nowMicros}, or {@code null} if Redis must decide. */
    Decision find(RateLimitPolicy policy, String limit, long permits, long nowMicros) {
        if (capacity == 0 || refusals.isEmpty()) {
            return null;
        }
        Request request = new Request(policy, limit, permits);
        Refusal refusal = refusals.get(request);
        if (refusal == null) {
            return null;
        }
        if (nowMicros >= refusal.until()) {
            refusals.remove(request, refusal);
            return null;
        }
        return new Decision(false, refusal.remaining(), Duration.of(refusal.retryAt() - nowMicros, ChronoUnit.MICROS),
                Duration.of(Math.max(0, refusal.resetAt() - nowMicros), ChronoUnit.MICROS), policy.rate());
    }

    /** Remembers {@code decision} if it is a refusal; {@code sentMicros} is when the request left. */
    void remember(RateLimitPolicy policy, String limit, long permits, long sentMicros, Decision decision) {
        if (capacity == 0 || decision.allowed()) {
            return;
        }
        if (refusals.size() >= capacity) {
            makeRoom(sentMicros);
        }
        long retryAt = sentMicros + micros(decision.retryAfter());
        refusals.put(new Request(policy, limit, permits), new Refusal(Math.min(retryAt, sentMicros + MAX_TRUST_MICROS),
                retryAt, sentMicros + micros(decision.resetAfter()), decision.remaining()));
    }

    /** Drops every refusal of one limit (all policies and request sizes): its keys were reset. */
    void forget(String limit) {
        refusals.keySet().removeIf(request -> request.limit.equals(limit));
    }

    /** Drops everything: a reset may have been missed (the subscription was down). */
    void clear() {
        refusals.clear();
    }

    int size() {
        return refusals.size();
    }

    private void makeRoom(long nowMicros) {
        Map.Entry<Request, Refusal> first = null;
        int seen = 0;
        for (Iterator<Map.Entry<Request, Refusal>> it = refusals.entrySet().iterator(); it.hasNext() && seen < SAMPLE;
             seen++) {
            Map.Entry<Request, Refusal> entry = it.next();
            if (entry.getValue().until() <= nowMicros) {
                it.remove();
            } else if (first == null || entry.getValue().until() < first.getValue().until()) {
                first = entry;
            }
        }
        if (refusals.size() >= capacity && first != null) {
            refusals.remove(first.getKey(), first.getValue());
        }
    }

    private static long micros(Duration duration) {
        return duration.toNanos() / 1000;
    }
}
