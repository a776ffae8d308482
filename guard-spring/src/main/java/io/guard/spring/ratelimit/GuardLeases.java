package io.guard.spring.ratelimit;

import io.guard.ratelimit.lease.LeaseSize;
import io.guard.ratelimit.lease.LeaseStats;
import io.guard.ratelimit.lease.LeasingRateLimiter;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What this instance leases (see docs/algorithms.md#leased-decisions): each limit's lease size and, when some limit
 * leases on Redis, the leases taken, given back and held; for the leasing limiter, the actuator and the meters.
 *
 * <p>A limit's size is known where its declaration is resolved: {@code @RateLimit(lease)} under
 * {@code guard.rate-limit.instances.<name>.lease} over {@code defaults.lease}, told here as each limit is first
 * resolved and again by a configuration refresh; limits no annotation declares (routes, gateway routes) take the
 * configured size. Every limit is exact ({@link LeaseSize#OFF}) when the backend is in process.
 */
public final class GuardLeases {

    private final Map<String, LeaseSize> resolved = new ConcurrentHashMap<>();
    private volatile LeasingRateLimiter limiter;
    private volatile Function<String, LeaseSize> configured = name -> LeaseSize.OFF;
    /** Whether some limit leases, or did since start-up: from then on its counts are shown. */
    private volatile boolean leased;
    /** Told the name of each limit that takes a lease (meters per limit); handed to the limiter once it is here. */
    private volatile Consumer<String> leasedLimits;

    /**
     * Set once by the Redis backend's configuration.
     *
     * @param configured the size configuration gives a limit by name; {@code null} when no property leases
     */
    public synchronized void use(LeasingRateLimiter limiter, Function<String, LeaseSize> configured) {
        this.limiter = limiter;
        if (leasedLimits != null) {
            limiter.onLimitLeased(leasedLimits);
        }
        if (configured != null) {
            this.leased = true;
            this.configured = configured;
        }
    }

    /** The size limit (or tier) {@code name} was resolved to at start-up; told once per limit by its declaration. */
    public void resolved(String name, LeaseSize size) {
        put(name, size);
    }

    /**
     * Changes the size limit {@code name} leases with, from its next lease on (a configuration refresh); a lease in
     * hand is spent or expires within its lifetime. False, and nothing changed, when nothing leases here (the
     * in-process backend).
     */
    public boolean resize(String name, LeaseSize size) {
        if (limiter == null) {
            return false;
        }
        put(name, size);
        return true;
    }

    private void put(String name, LeaseSize size) {
        resolved.put(name, size);
        if (!size.off()) {
            leased = true;
        }
    }

    /** The lease size limit {@code name} decides with: {@link LeaseSize#OFF} (exact) unless it leases. */
    public LeaseSize sizeOf(String name) {
        return limiter == null ? LeaseSize.OFF : leaseSize(name);
    }

    /**
     * Whether limit {@code name} leases now: for every decision's observation, so a single volatile read while no
     * limit leases (the usual case), before any lookup by name.
     */
    public boolean leases(String name) {
        return leased && limiter != null && !leaseSize(name).off();
    }

    /** For the leasing limiter: the size of limit {@code name}, resolved or configured. */
    public LeaseSize leaseSize(String name) {
        LeaseSize size = resolved.get(name);
        return size != null ? size : configured.apply(name);
    }

    /**
     * Tells {@code listener} the name of each limit that takes a lease on this instance: those that did, and each
     * as it first does (never, on the in-process backend).
     */
    public synchronized void onLimitLeased(Consumer<String> listener) {
        this.leasedLimits = listener;
        if (limiter != null) {
            limiter.onLimitLeased(listener);
        }
    }

    /** The counts of limit {@code name}'s leases on this instance (all zero when nothing leases here). */
    public LeaseStats stats(String name) {
        LeasingRateLimiter current = limiter;
        return current == null ? new LeaseStats(0, 0, 0, 0, 0) : current.stats(name);
    }

    /** The leasing limiter's counts, when some limit leases (or did). */
    public Optional<LeaseStats> stats() {
        LeasingRateLimiter current = limiter;
        if (current == null || !leased) {
            return Optional.empty();
        }
        return Optional.of(current.stats());
    }
}
