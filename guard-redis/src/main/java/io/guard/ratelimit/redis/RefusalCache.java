package io.guard.ratelimit.redis;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers refusals until their {@code retryAfter}, so a key that is hammered while over its limit (the abuse case
 * a limiter exists for) is refused in process instead of costing Redis a script per request.
 *
 * <p>This is exact, not a heuristic: under all three algorithms nothing but the passage of time frees permits (other
 * callers only take more), so a request refused at {@code t} with {@code retryAfter r} is refused again at any time
 * before {@code t + r}, for the same policy and at least as many permits. The entry is timed from when the request
 * was <em>sent</em>, before Redis read its clock, so it expires no later than the true instant, and the next request
 * asks Redis again. A changed policy is another entry. The cached refusal repeats the original {@code remaining}
 * and {@code resetAfter}, which can only be conservative. Entries are bounded in number; when full, refusals are
 * simply not remembered.
 */
final class RefusalCache {

    /** {@code limit} is the encoded, length-bounded hash tag of the limiter and key, never the raw key. */
    private record Request(RateLimitPolicy policy, String limit, long permits) {
    }

    /** Times in the caller's microseconds; {@code resetAt} is when the quota was due to be whole again. */
    private record Refusal(long until, long resetAt, long remaining) {
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
        return new Decision(false, refusal.remaining(), Duration.of(refusal.until() - nowMicros, ChronoUnit.MICROS),
                Duration.of(Math.max(0, refusal.resetAt() - nowMicros), ChronoUnit.MICROS), policy.rate());
    }

    /** Remembers {@code decision} if it is a refusal; {@code sentMicros} is when the request left. */
    void remember(RateLimitPolicy policy, String limit, long permits, long sentMicros, Decision decision) {
        if (capacity == 0 || decision.allowed()) {
            return;
        }
        if (refusals.size() >= capacity) {
            refusals.values().removeIf(r -> r.until() <= sentMicros);
            if (refusals.size() >= capacity) {
                return;
            }
        }
        long retry = micros(decision.retryAfter());
        refusals.put(new Request(policy, limit, permits),
                new Refusal(sentMicros + retry, sentMicros + micros(decision.resetAfter()), decision.remaining()));
    }

    int size() {
        return refusals.size();
    }

    private static long micros(Duration duration) {
        return duration.toNanos() / 1000;
    }
}
