package io.guard.sample.order;

/**
 * What {@code GET /orders/{id}/status} answers to a polling client.
 *
 * @param id                 the order
 * @param status             its status; null when the client polled too often and got no fresh answer
 * @param pollAgainInSeconds when the client may poll again with a fresh answer; 0 when this one is fresh
 */
record OrderStatus(long id, String status, long pollAgainInSeconds) {
}
