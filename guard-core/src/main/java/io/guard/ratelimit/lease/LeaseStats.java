package io.guard.ratelimit.lease;

/**
 * What a {@link LeasingRateLimiter} has done with leases since it started, and what it holds now: for meters and the
 * actuator, so that the accuracy leasing trades is visible.
 *
 * @param leasesTaken     leases taken from the shared quota
 * @param permitsReturned unused permits given back to the shared quota (on expiry, shutdown, or with the next lease)
 * @param permitsExpired  unused permits that never went back (a reset, a changed limit, a window that ended, a
 *                        failed give-back): what leasing cost in under-admission
 * @param permitsHeld     permits held unused in leases right now
 * @param keys            (limit, key) pairs this instance tracks for leasing right now
 */
public record LeaseStats(long leasesTaken, long permitsReturned, long permitsExpired, long permitsHeld, int keys) {
}
