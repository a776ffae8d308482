package io.guard.ratelimit.lease;

import io.guard.ratelimit.Decision;

import java.time.Duration;

/**
 * The store's answer to a lease request ({@link LeaseSource#take}).
 *
 * @param granted    permits taken from the shared quota: 0 when fewer than the request's permits were left (the
 *                   decision then refuses), else between the request's permits and the size asked for
 * @param decision   the answer for the request that asked for the lease, as an exact decision would have been:
 *                   remaining is what the quota has left once the lease is taken
 * @param takenAt    when the store took it, in microseconds on the limit's clock (a fixed window's window follows)
 * @param usableFor  how long the store lets the lease be spent from when the request was sent (a fixed window's
 *                   end); {@link #UNBOUNDED} when only the lease's own lifetime bounds it
 * @param givenBack  permits of the previous lease the same script gave back to the quota
 */
public record LeaseGrant(long granted, Decision decision, long takenAt, Duration usableFor, long givenBack) {

    /** A lease that only its own lifetime limits. */
    public static final Duration UNBOUNDED = Duration.ofDays(36_500);
}
