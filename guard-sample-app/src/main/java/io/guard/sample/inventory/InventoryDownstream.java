package io.guard.sample.inventory;

import io.guard.sample.chaos.Chaos;
import io.guard.sample.chaos.ChaosSettings;
import org.springframework.stereotype.Component;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stands in for a remote inventory service: every call takes the chaos latency (it sleeps, as a slow remote call
 * blocks the caller's thread) and fails with the chaos failure rate. SKUs starting with {@code SOLD-OUT} have no
 * stock; every other SKU has a fixed stock between 1 and 100 derived from its name.
 */
@Component
public class InventoryDownstream {

    static final String SOLD_OUT_PREFIX = "SOLD-OUT";

    private final Chaos chaos;
    private final AtomicLong calls = new AtomicLong();

    InventoryDownstream(Chaos chaos) {
        this.chaos = chaos;
    }

    /**
     * Looks up the stock of {@code sku}.
     *
     * @throws InventoryUnavailableException when the simulated call fails or is interrupted
     * @throws OutOfStockException           when the SKU has no stock
     */
    int stock(String sku) {
        calls.incrementAndGet();
        ChaosSettings settings = chaos.current();
        pause(settings.latencyMs());
        if (settings.failureRate() > 0 && ThreadLocalRandom.current().nextDouble() < settings.failureRate()) {
            throw new InventoryUnavailableException("Inventory downstream failed for SKU '" + sku
                    + "' (simulated, failureRate=" + settings.failureRate() + ")");
        }
        if (sku.toUpperCase(Locale.ROOT).startsWith(SOLD_OUT_PREFIX)) {
            throw new OutOfStockException(sku);
        }
        return Math.floorMod(sku.hashCode(), 100) + 1;
    }

    /** Calls that reached this downstream since start: what the breaker spares it while OPEN. */
    public long calls() {
        return calls.get();
    }

    private static void pause(long millis) {
        if (millis == 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InventoryUnavailableException("Interrupted while waiting for the inventory downstream");
        }
    }
}
