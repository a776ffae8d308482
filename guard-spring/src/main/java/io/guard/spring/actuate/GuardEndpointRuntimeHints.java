package io.guard.spring.actuate;

import io.guard.ratelimit.lease.LeaseStats;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The JSON the {@code guard} and {@code guardevents} endpoints and the event stream write, for Spring AOT. Spring Boot
 * registers an endpoint operation's declared return type by itself, but several of Guard's operations answer
 * {@code Object} or {@code WebEndpointResponse<Object>} (a descriptor, or an error), and the event stream writes
 * {@link EventDescriptor}s outside any operation: without these hints a native image would answer them with empty
 * objects or fail to serialize them.
 */
class GuardEndpointRuntimeHints implements RuntimeHintsRegistrar {

    /** Every payload type; the registrar follows their components (nested records, lists, maps) by itself. */
    static final Class<?>[] PAYLOADS = {
            GuardEndpoint.GuardReport.class, GuardEndpoint.GuardEntry.class, CircuitBreakerDescriptor.class,
            RateLimiterDescriptor.class, BulkheadDescriptor.class, QuotaDescriptor.class, BackendStatus.class,
            GuardEventsEndpoint.GuardEvents.class, EventDescriptor.class, GuardHealthReports.Report.class,
            LeaseStats.class};

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), PAYLOADS);
    }
}
