package io.guard.ratelimit.local;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitPolicy;

/**
 * The in-memory state of one limit (one limiter and key), mirroring its Lua script step for step so that both
 * backends give the same {@link Decision} for the same history. Callers hold the state's monitor.
 */
interface LimitState {

    /**
     * Decides a request of {@code permits} at {@code nowMicros}, recording it if allowed and {@code spend} is true.
     * With {@code spend} false nothing changes (the script's peek mode): the answer is what the request would get,
     * except that {@code remaining} is what is left before it, as for {@link io.guard.ratelimit.Quota}.
     */
    Decision decide(RateLimitPolicy policy, long nowMicros, long permits, boolean spend);

    /** What is left at {@code nowMicros}, as a one-permit request sees it, changing nothing; no debt but a bucket's. */
    default Quota quota(RateLimitPolicy policy, long nowMicros) {
        return Quota.of(decide(policy, nowMicros, 1, false));
    }

    /**
     * What puts this state back as it is now, for a group of limits decided all-or-nothing: run it (holding the
     * monitor) to undo the decisions taken since, newest first when several states are involved. Records that
     * expired meanwhile stay dropped: they count for nothing at any later time.
     */
    Runnable mark();

    /** From this instant on the state is equivalent to no state at all and may be dropped. */
    long expiresAtMicros();
}
