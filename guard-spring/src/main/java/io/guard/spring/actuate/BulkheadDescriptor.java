package io.guard.spring.actuate;

import io.guard.bulkhead.Bulkhead;

/**
 * One bulkhead as the {@code guard} endpoint shows it.
 *
 * @param maxConcurrentCalls calls allowed at once: the fixed bound, or where an adaptive limit stands now
 * @param concurrentCalls    calls running now
 * @param permittedCalls     calls admitted since start-up
 * @param refusedCalls       calls refused since start-up
 * @param limit              what moves the bound: {@code fixed}, or the adaptive algorithm ({@code gradient2},
 *                           {@code vegas}, {@code aimd})
 */
public record BulkheadDescriptor(int maxConcurrentCalls, int concurrentCalls, long permittedCalls, long refusedCalls,
                                 String limit) {

    static BulkheadDescriptor of(Bulkhead bulkhead) {
        return new BulkheadDescriptor(bulkhead.maxConcurrentCalls(), bulkhead.concurrentCalls(),
                bulkhead.permittedCalls(), bulkhead.refusedCalls(), bulkhead.algorithm());
    }
}
