package io.guard.ratelimit.lease;

import io.guard.ratelimit.RateLimitPolicy;

/**
 * How many permits the next lease asks for. A fixed size asks for that size. {@code auto} asks for what this instance
 * was asked for on the key during the last lease lifetime (so a lease lasts about one lifetime), at most a tenth of
 * the limit (so a few instances cannot hold the whole quota), and at most half of what the quota had left at the last
 * look (so a nearly spent quota is not drained by one instance): a cold key or a nearly spent quota comes out at 1,
 * which means exact.
 */
final class LeaseSizer {

    /** An automatic lease holds at most this share of the limit: 1 / {@value}. */
    static final long AUTO_SHARE = 10;

    private LeaseSizer() {
    }

    /**
     * @param demand    permits asked for on the key per lease lifetime lately
     * @param quotaLeft what the shared quota had left at the last answer; {@code Long.MAX_VALUE} if unknown
     * @return the permits to ask for; at most {@code need} means: decide exactly
     */
    static long size(LeaseSize size, RateLimitPolicy policy, long demand, long quotaLeft) {
        if (size.off()) {
            return 1;
        }
        if (!size.auto()) {
            return Math.min(size.fixed(), policy.maxPermits());
        }
        long cap = Math.max(1, policy.maxPermits() / AUTO_SHARE);
        return Math.max(1, Math.min(Math.min(cap, demand), quotaLeft / 2));
    }
}
