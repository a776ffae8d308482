package io.guard.bulkhead;

import io.guard.refusal.Refusal;
import io.guard.refusal.RefusalKind;

/**
 * Thrown when a bulkhead refuses a call because {@code maxConcurrentCalls} calls are running. The HTTP layer
 * answers it like an open breaker: the fallback if there is one, else {@code 503}.
 */
public class BulkheadFullException extends RuntimeException implements Refusal {

    private static final long serialVersionUID = 1L;

    private final String bulkheadName;
    private final int maxConcurrentCalls;

    public BulkheadFullException(String bulkheadName, int maxConcurrentCalls) {
        super("Bulkhead '" + bulkheadName + "' is full: " + maxConcurrentCalls + " concurrent calls are running",
                null, false, false);
        this.bulkheadName = bulkheadName;
        this.maxConcurrentCalls = maxConcurrentCalls;
    }

    public String bulkheadName() {
        return bulkheadName;
    }

    public int maxConcurrentCalls() {
        return maxConcurrentCalls;
    }

    @Override
    public RefusalKind refusalKind() {
        return RefusalKind.BULKHEAD_FULL;
    }

    /** The {@link #bulkheadName()}. */
    @Override
    public String refusedBy() {
        return bulkheadName;
    }
}
