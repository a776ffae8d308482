package io.guard.bulkhead;

import io.guard.refusal.Refusal;
import io.guard.refusal.RefusalKind;

import java.time.Duration;
import java.util.Optional;

/**
 * Thrown when a bulkhead refuses a call because {@code maxConcurrentCalls} calls are running. The HTTP layer
 * answers it like an open breaker: the fallback if there is one, else {@code 503}, with {@code Retry-After} when the
 * bulkhead gives a hint (an adaptive limit does: it moves within that time).
 */
public class BulkheadFullException extends RuntimeException implements Refusal {

    private static final long serialVersionUID = 1L;

    private final String bulkheadName;
    private final int maxConcurrentCalls;
    private final Duration retryAfter;

    public BulkheadFullException(String bulkheadName, int maxConcurrentCalls) {
        this(bulkheadName, maxConcurrentCalls, null);
    }

    /** @param retryAfter the {@code Retry-After} hint; null for none */
    public BulkheadFullException(String bulkheadName, int maxConcurrentCalls, Duration retryAfter) {
        super("Bulkhead '" + bulkheadName + "' is full: " + maxConcurrentCalls + " concurrent calls are running",
                null, false, false);
        this.bulkheadName = bulkheadName;
        this.maxConcurrentCalls = maxConcurrentCalls;
        this.retryAfter = retryAfter;
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

    @Override
    public Optional<Duration> retryAfterHint() {
        return Optional.ofNullable(retryAfter);
    }

    /** The {@link #bulkheadName()}. */
    @Override
    public String refusedBy() {
        return bulkheadName;
    }
}
