package io.guard.ratelimit.lease;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Permits one instance took from a limit's shared quota, spent locally until none is left, the lease expires or it
 * is revoked. Spending and closing race on one counter, so every permit is either spent once or handed back once.
 */
final class Lease {

    private static final long CLOSED = -1;

    final RateLimitPolicy policy;
    final String key;
    /** When the store took it, microseconds on the limit's clock. */
    final long takenAt;
    /** Until when (nanoTime) it may be spent. */
    final long expiresAt;
    /** What the shared quota had left right after the lease was taken. */
    final long quotaLeft;
    /** When (nanoTime) the quota is whole again, as the store said at the take. */
    final long resetAt;
    private final AtomicLong left;

    Lease(RateLimitPolicy policy, String key, long permits, long takenAt, long expiresAt, long quotaLeft,
          long resetAt) {
        this.policy = policy;
        this.key = key;
        this.takenAt = takenAt;
        this.expiresAt = expiresAt;
        this.quotaLeft = quotaLeft;
        this.resetAt = resetAt;
        this.left = new AtomicLong(permits);
    }

    /** Takes {@code permits} from the lease if it holds that many and is open; returns what is left then, or -1. */
    long spend(long permits) {
        while (true) {
            long now = left.get();
            if (now < permits) {
                return -1;
            }
            if (left.compareAndSet(now, now - permits)) {
                return now - permits;
            }
        }
    }

    /**
     * The answer from {@code lease} if it is open, not expired, of {@code policy} and holds {@code permits} (which it
     * then spends); else {@code null}.
     */
    static Decision answer(Lease lease, RateLimitPolicy policy, long permits, long nanoTime) {
        if (lease == null || lease.expired(nanoTime) || !lease.policy.equals(policy)) {
            return null;
        }
        long left = lease.spend(permits);
        return left < 0 ? null : new Decision(true, lease.quotaLeft + left, Duration.ZERO,
                Duration.ofNanos(Math.max(0, lease.resetAt - nanoTime)), policy.rate());
    }

    /** Closes the lease; returns the permits it held unused (0 if already closed), which no one can spend now. */
    long close() {
        return Math.max(0, left.getAndSet(CLOSED));
    }

    /** Permits unused now (0 once closed). */
    long left() {
        return Math.max(0, left.get());
    }

    boolean expired(long nanoTime) {
        return nanoTime - expiresAt >= 0;
    }
}
