package io.guard.sample.inventory;

/**
 * The downstream answered, and the answer is "none left": a business outcome, not a sign of a sick downstream.
 * The {@code inventory} breaker ignores it (see {@code application.yml}), no fallback catches it, and the web
 * layer answers 409.
 */
public class OutOfStockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String sku;

    public OutOfStockException(String sku) {
        super("SKU '" + sku + "' is out of stock");
        this.sku = sku;
    }

    public String sku() {
        return sku;
    }
}
