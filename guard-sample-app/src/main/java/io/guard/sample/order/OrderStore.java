package io.guard.sample.order;

import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps the most recent orders in memory. Bounded, so that a long load test cannot exhaust the heap: the sample is
 * about the limits in front of it, not about storage.
 */
@Component
class OrderStore {

    static final int CAPACITY = 10_000;

    private final Clock clock;
    private final Map<Long, Order> orders = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Order> eldest) {
            return size() > CAPACITY;
        }
    };
    private long lastId;

    OrderStore(Clock clock) {
        this.clock = clock;
    }

    synchronized Order create(long userId) {
        Order order = new Order(++lastId, userId, "CREATED", clock.instant());
        orders.put(order.id(), order);
        return order;
    }

    synchronized Optional<Order> find(long id) {
        return Optional.ofNullable(orders.get(id));
    }
}
