package io.guard.ratelimit.lease;

import io.guard.ratelimit.RateLimitPolicy;

import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * Where leases come from: a store that takes several permits of a limit's shared quota in one atomic step (Redis,
 * one script on Redis' clock) and takes back the ones a lease left unused. What {@link LeasingRateLimiter} decides
 * with locally is only ever what this source took: leased permits are spent permits.
 */
public interface LeaseSource {

    /**
     * Gives back {@code previous}'s unused permits (if any), then takes up to {@code want} permits of {@code key}'s
     * quota, at least {@code need} (the request that asked), else nothing.
     */
    CompletionStage<LeaseGrant> take(RateLimitPolicy policy, String key, long want, long need, Unused previous);

    /** Gives back a lease's unused permits where the algorithm can do so safely; completes with the permits given back. */
    CompletionStage<Long> giveBack(RateLimitPolicy policy, String key, Unused unused);

    /**
     * Calls {@code revoked} with a limit's hash tag when its quota is reset anywhere in the fleet (and with
     * {@code null} when such news may have been missed), so that every instance drops the leases it holds for it.
     */
    void onRevoke(Consumer<String> revoked);

    /**
     * Permits a lease left unused, to give back.
     *
     * @param permits the unused permits (0: nothing to give back)
     * @param takenAt when the lease was taken, as {@link LeaseGrant#takenAt()}
     */
    record Unused(long permits, long takenAt) {
        /** Nothing to give back. */
        public static final Unused NONE = new Unused(0, 0);
    }
}
