package io.guard.spring.actuate;

import io.guard.bulkhead.Bulkhead;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * One bulkhead's meters, read from its own counters when scraped, so a call pays nothing for them:
 * {@code guard.bulkhead.concurrent.calls}, {@code guard.bulkhead.max.concurrent.calls} (gauges) and
 * {@code guard.bulkhead.calls} ({@code result=permitted|refused}), tagged by {@code name}.
 */
final class BulkheadMeters {

    private BulkheadMeters() {
    }

    static void bind(Bulkhead bulkhead, MeterRegistry registry) {
        Gauge.builder("guard.bulkhead.concurrent.calls", bulkhead, Bulkhead::concurrentCalls)
                .tag("name", bulkhead.name()).description("Calls running through the bulkhead now")
                .register(registry);
        Gauge.builder("guard.bulkhead.max.concurrent.calls", bulkhead, Bulkhead::maxConcurrentCalls)
                .tag("name", bulkhead.name()).description("Calls the bulkhead allows at once").register(registry);
        FunctionCounter.builder("guard.bulkhead.calls", bulkhead, Bulkhead::permittedCalls)
                .tags("name", bulkhead.name(), "result", "permitted").description("Calls admitted or refused by the bulkhead, by result")
                .register(registry);
        FunctionCounter.builder("guard.bulkhead.calls", bulkhead, Bulkhead::refusedCalls)
                .tags("name", bulkhead.name(), "result", "refused").description("Calls admitted or refused by the bulkhead, by result")
                .register(registry);
    }
}
