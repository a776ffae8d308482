package io.guard.spring.ratelimit;

import io.guard.ratelimit.lease.LeaseSize;
import io.guard.ratelimit.lease.LeaseStats;
import io.guard.ratelimit.lease.LeasingRateLimiter;

import java.util.Optional;
import java.util.function.Function;

/**
 * What this instance leases (see docs/algorithms.md#leased-decisions): each limit's lease size and, when some limit
 * leases on Redis, the leases taken, given back and held; for the actuator and the meters. Empty (every limit
 * {@code off}) when no limit leases or the backend is in process.
 */
public final class GuardLeases {

    private volatile LeasingRateLimiter limiter;
    private volatile Function<String, LeaseSize> sizes = name -> LeaseSize.OFF;

    /** Set once by the backend's configuration when some limit leases. */
    public void use(LeasingRateLimiter limiter, Function<String, LeaseSize> sizes) {
        this.limiter = limiter;
        this.sizes = sizes;
    }

    /** The lease size limit {@code name} decides with: {@link LeaseSize#OFF} (exact) unless it leases. */
    public LeaseSize sizeOf(String name) {
        return limiter == null ? LeaseSize.OFF : sizes.apply(name);
    }

    /** The leasing limiter's counts, when some limit leases. */
    public Optional<LeaseStats> stats() {
        LeasingRateLimiter current = limiter;
        return current == null ? Optional.empty() : Optional.of(current.stats());
    }
}
