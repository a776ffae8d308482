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
 * The meters of leased limits (docs/algorithms.md#leased-decisions), per limit on this instance ({@code name}): leases
 * taken ({@code guard.ratelimit.leases}), their unused permits given back or lost ({@code guard.ratelimit.lease.permits},
 * {@code result=returned|expired}) and the permits held now ({@code guard.ratelimit.lease.permits.held}). A limit's
 * meters appear when it takes its first lease here, so that which limit's leases cost what in under-admission shows;
 * they read the counts when scraped, so they cost the decisions nothing.
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
        leases.onLimitLeased(name -> register(registry, name));
    }

    private void register(MeterRegistry registry, String name) {
        FunctionCounter.builder(LEASES, leases, count(name, LeaseStats::leasesTaken)).tag("name", name)
                .description("Leases taken from shared quotas").register(registry);
        FunctionCounter.builder(PERMITS, leases, count(name, LeaseStats::permitsReturned)).tag("name", name)
                .tag("result", "returned")
                .description("Unused leased permits given back to the shared quota, or lost (expired)")
                .register(registry);
        FunctionCounter.builder(PERMITS, leases, count(name, LeaseStats::permitsExpired)).tag("name", name)
                .tag("result", "expired")
                .description("Unused leased permits given back to the shared quota, or lost (expired)")
                .register(registry);
        Gauge.builder(HELD, leases, count(name, LeaseStats::permitsHeld)).tag("name", name)
                .description("Leased permits held unused by this instance now").register(registry);
    }

    private static ToDoubleFunction<GuardLeases> count(String name, ToLongFunction<LeaseStats> field) {
        return leases -> field.applyAsLong(leases.stats(name));
    }
}
