package io.guard.spring.actuate;

import io.guard.ratelimit.lease.LeaseStats;
import io.guard.spring.ratelimit.GuardLeases;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The meters of leased limits (docs/algorithms.md#leased-decisions), for this instance: leases taken
 * ({@code guard.ratelimit.leases}), their unused permits given back or lost ({@code guard.ratelimit.lease.permits},
 * {@code result=returned|expired}) and the permits held now ({@code guard.ratelimit.lease.permits.held}). They read
 * the counts when scraped, so they cost the decisions nothing; all zero while no limit leases.
 *
 * <p>Internal: public for the starters' metrics auto-configuration; not an API.
 */
public final class LeaseMeters implements MeterBinder {

    static final String LEASES = "guard.ratelimit.leases";
    static final String PERMITS = "guard.ratelimit.lease.permits";
    static final String HELD = "guard.ratelimit.lease.permits.held";

    private final GuardLeases leases;

    public LeaseMeters(GuardLeases leases) {
        this.leases = leases;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder(LEASES, leases, count(LeaseStats::leasesTaken))
                .description("Leases taken from shared quotas").register(registry);
        FunctionCounter.builder(PERMITS, leases, count(LeaseStats::permitsReturned)).tag("result", "returned")
                .description("Unused leased permits given back to the shared quota, or lost (expired)")
                .register(registry);
        FunctionCounter.builder(PERMITS, leases, count(LeaseStats::permitsExpired)).tag("result", "expired")
                .description("Unused leased permits given back to the shared quota, or lost (expired)")
                .register(registry);
        Gauge.builder(HELD, leases, count(LeaseStats::permitsHeld))
                .description("Leased permits held unused by this instance now").register(registry);
    }

    private static ToDoubleFunction<GuardLeases> count(ToLongFunction<LeaseStats> field) {
        return leases -> leases.stats().map(field::applyAsLong).orElse(0L);
    }
}
