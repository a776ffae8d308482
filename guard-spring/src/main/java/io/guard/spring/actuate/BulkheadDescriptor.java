package io.guard.spring.actuate;

import io.guard.bulkhead.Bulkhead;

/**
 * One bulkhead as the {@code guard} endpoint shows it.
 *
 * @param maxConcurrentCalls calls allowed at once
 * @param concurrentCalls    calls running now
 * @param permittedCalls     calls admitted since start-up
 * @param refusedCalls       calls refused since start-up
 */
public record BulkheadDescriptor(int maxConcurrentCalls, int concurrentCalls, long permittedCalls, long refusedCalls) {

    static BulkheadDescriptor of(Bulkhead bulkhead) {
        return new BulkheadDescriptor(bulkhead.maxConcurrentCalls(), bulkhead.concurrentCalls(),
                bulkhead.permittedCalls(), bulkhead.refusedCalls());
    }
}
