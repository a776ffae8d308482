package io.guard.sample.order;

import java.time.Instant;

/**
 * An order as the API shows it.
 *
 * @param id        assigned by the service, increasing
 * @param userId    who placed it
 * @param status    always {@code CREATED} in this sample
 * @param createdAt when the service accepted it
 */
public record Order(long id, long userId, String status, Instant createdAt) {
}
