package io.guard.sample.inventory;

import io.guard.breaker.CallNotPermittedException;
import io.guard.spring.annotation.CircuitBreaker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Asks the inventory downstream through the {@code inventory} circuit breaker. While the breaker is OPEN, or when
 * the downstream fails, callers get a degraded answer at once instead of waiting on a sick service; an
 * {@link OutOfStockException} matches no fallback and reaches the caller.
 */
@Service
public class InventoryService {

    private static final Logger log = LoggerFactory.getLogger(InventoryService.class);

    private final InventoryDownstream downstream;

    InventoryService(InventoryDownstream downstream) {
        this.downstream = downstream;
    }

    @CircuitBreaker(name = "inventory", fallbackMethod = "degraded")
    public Availability availability(String sku) {
        return new Availability(sku, downstream.stock(sku), false);
    }

    /** The breaker refused the call: no log line, it is expected while OPEN and would flood the log. */
    public Availability degraded(String sku, CallNotPermittedException refused) {
        return new Availability(sku, 0, true);
    }

    public Availability degraded(String sku, InventoryUnavailableException failure) {
        log.debug("Degraded answer for SKU '{}': {}", sku, failure.getMessage());
        return new Availability(sku, 0, true);
    }
}
