package io.guard.spring.actuate;

import io.guard.ratelimit.BackendFailureReason;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitObserver;
import io.guard.ratelimit.RateLimitPolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Counts rate-limit decisions, and the decisions a failure policy made by reason, and times the backend, per limiter
 * name. Meters are created once per limiter and
 * found by name afterwards; they are tagged with the limiter's name only, never with the resolved key (a user id
 * or an IP would give every user a time series).
 */
final class RateLimiterMeters implements RateLimitObserver {

    static final String REQUESTS = "guard.ratelimit.requests";
    static final String BACKEND_LATENCY = "guard.ratelimit.backend.latency";
    static final String BACKEND_FAILURES = "guard.ratelimit.backend.failures";
    static final String CHARGES = "guard.ratelimit.charges";
    static final String CHARGED_PERMITS = "guard.ratelimit.charges.permits";

    private final MeterRegistry registry;
    private final Map<String, Meters> byName = new ConcurrentHashMap<>();
    /** Only limits that charge a cost after the call get these, on their first charge. */
    private final Map<String, ChargeMeters> charges = new ConcurrentHashMap<>();

    RateLimiterMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void onDecision(RateLimitPolicy policy, Decision decision, long latencyNanos) {
        String name = policy.name();
        Meters meters = byName.get(name); // one map read per decision once the limiter's meters exist
        if (meters == null) {
            meters = meters(name);
        }
        (decision.allowed() ? meters.permitted : meters.rejected).increment();
        meters.latency.record(latencyNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void onBackendError(RateLimitPolicy policy, Throwable error, long latencyNanos) {
        Meters meters = meters(policy.name());
        meters.error.increment();
        meters.failures[BackendFailureReason.of(error).ordinal()].increment();
        meters.latency.record(latencyNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void onCharge(RateLimitPolicy policy, long permits, Quota quota, Throwable error) {
        ChargeMeters meters = charges.computeIfAbsent(policy.name(), name -> new ChargeMeters(registry, name));
        if (error != null) {
            meters.failed.increment();
            return;
        }
        (quota.debt() > 0 ? meters.inDebt : meters.inCredit).increment();
        (permits >= 0 ? meters.charged : meters.refunded).increment(Math.abs((double) permits));
    }

    /** Creates the meters of a limiter up front, so they show (as zero) before its first request. */
    void register(String name) {
        meters(name);
    }

    private Meters meters(String name) {
        Meters meters = byName.get(name);
        return meters != null ? meters : byName.computeIfAbsent(name, n -> new Meters(registry, n));
    }

    /** What costs after the call did to one limit: charges by outcome, permits charged and given back. */
    private static final class ChargeMeters {
        final Counter inCredit;
        final Counter inDebt;
        final Counter failed;
        final Counter charged;
        final Counter refunded;

        ChargeMeters(MeterRegistry registry, String name) {
            inCredit = charges(registry, name, "in-credit");
            inDebt = charges(registry, name, "in-debt");
            failed = charges(registry, name, "failed");
            charged = permits(registry, name, "charged");
            refunded = permits(registry, name, "refunded");
        }

        private static Counter charges(MeterRegistry registry, String name, String outcome) {
            return Counter.builder(CHARGES).tags("name", name, "outcome", outcome)
                    .description("Costs charged after the call, by the key's balance after them").register(registry);
        }

        private static Counter permits(MeterRegistry registry, String name, String direction) {
            return Counter.builder(CHARGED_PERMITS).tags("name", name, "direction", direction)
                    .description("Permits charged after the call beyond the estimate, or given back")
                    .register(registry);
        }
    }

    private static final class Meters {
        final Counter permitted;
        final Counter rejected;
        final Counter error;
        final Timer latency;
        /** By {@link BackendFailureReason#ordinal()}. */
        final Counter[] failures;

        Meters(MeterRegistry registry, String name) {
            permitted = requests(registry, name, "permitted");
            rejected = requests(registry, name, "rejected");
            error = requests(registry, name, "error");
            BackendFailureReason[] reasons = BackendFailureReason.values();
            failures = new Counter[reasons.length];
            for (BackendFailureReason reason : reasons) {
                failures[reason.ordinal()] = Counter.builder(BACKEND_FAILURES).tags("name", name, "reason", reason.tag())
                        .description("Decisions a failure policy made because the backend could not, by reason")
                        .register(registry);
            }
            latency = Timer.builder(BACKEND_LATENCY).tag("name", name)
                    .description("Time the rate-limit backend took to decide").register(registry);
        }

        private static Counter requests(MeterRegistry registry, String name, String result) {
            return Counter.builder(REQUESTS).tags("name", name, "result", result)
                    .description("Rate-limit decisions, by result").register(registry);
        }
    }
}
