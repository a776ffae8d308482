package io.guard.sample.inventory;

/**
 * What {@code GET /inventory/{sku}} answers.
 *
 * @param sku       the article asked about
 * @param available units in stock; 0 when degraded, so callers never sell stock nobody confirmed
 * @param degraded  whether this is the fallback's answer rather than the downstream's
 */
public record Availability(String sku, int available, boolean degraded) {
}
