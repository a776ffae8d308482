package io.guard.ratelimit.lease;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One (limit, key) on this instance: the lease in hand, and whether a call to the store (a take or a give-back) is in
 * flight. Only the holder of the slot talks to the store for it, and a new lease is only taken once the previous one
 * is closed (its unused permits given back in the same script), so the slot never holds more than one lease's permits.
 */
final class LeaseSlot {

    /** A refused take sends the key's calls to the exact path (and its remembered refusals) at most this long. */
    private static final long MAX_REFUSAL_NANOS = 1_000_000_000L;

    final AtomicReference<Lease> lease = new AtomicReference<>();
    final Demand demand;
    /** Bumped when the slot's leases are revoked: a take in flight then installs nothing. */
    final AtomicLong generation = new AtomicLong();
    private final AtomicBoolean busy = new AtomicBoolean();
    /** What the shared quota had left at the last answer the store gave this slot. */
    volatile long quotaLeft = Long.MAX_VALUE;
    /** Until when (nanoTime) the last take was refused: calls go exact meanwhile, to the refusals remembered there. */
    volatile long refusedUntil;
    volatile boolean refused;
    volatile long lastUse;
    /** The take in flight (or the last one): calls that find the lease spent meanwhile wait for it. */
    volatile CompletableFuture<?> taking;

    LeaseSlot(long periodNanos, long nanoTime) {
        this.demand = new Demand(periodNanos, nanoTime);
        this.lastUse = nanoTime;
    }

    /** Becomes the one caller that may talk to the store for this slot; false if another is. */
    boolean hold() {
        return busy.compareAndSet(false, true);
    }

    void release() {
        busy.set(false);
    }

    /**
     * Takes the slot out of use for good if it is idle (no lease, nothing in flight, unused since {@code idleSince}):
     * it stays held, so a caller that still has it never takes a lease into a slot no longer in the map.
     */
    boolean retire(long idleSince) {
        if (lease.get() != null || lastUse - idleSince > 0 || !hold()) {
            return false;
        }
        if (lease.get() != null) {
            release();
            return false;
        }
        return true;
    }

    /**
     * Notes what a take sent at {@code sent} answered: the quota it left, and a refusal when it granted fewer than the
     * request's {@code permits}. Answers the lease of what it granted beyond the request, living {@code lifeNanos},
     * for the caller to install; null when nothing is left over (or it was refused).
     */
    Lease granted(RateLimitPolicy policy, String key, long permits, LeaseGrant grant, long sent, long lifeNanos) {
        Decision decision = grant.decision();
        quotaLeft = decision.remaining();
        if (grant.granted() < permits) {
            refusedUntil = sent + Math.min(decision.retryAfter().toNanos(), MAX_REFUSAL_NANOS);
            refused = true;
            return null;
        }
        refused = false;
        long left = grant.granted() - permits;
        return left <= 0 ? null : new Lease(policy, key, left, grant.takenAt(), sent + lifeNanos,
                decision.remaining(), sent + decision.resetAfter().toNanos());
    }

    /** Whether a refused take still stands at {@code nanoTime}. */
    boolean refusedAt(long nanoTime) {
        return refused && nanoTime - refusedUntil < 0;
    }
}
