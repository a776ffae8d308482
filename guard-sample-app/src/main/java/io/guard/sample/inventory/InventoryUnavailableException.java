package io.guard.sample.inventory;

/** The downstream failed to answer: what the {@code inventory} breaker counts as a failure. */
public class InventoryUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InventoryUnavailableException(String message) {
        super(message);
    }
}
