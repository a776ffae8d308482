package io.guard.sample.order;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.ratelimit.RateLimitExceededException;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * Places and reads orders. The limits take their rate and interval from {@code application.yml}
 * ({@code guard.rate-limit.instances.*}), so operators change them without a release.
 */
@RestController
@RequestMapping("/orders")
class OrderController {

    private final OrderStore store;

    OrderController(OrderStore store) {
        this.store = store;
    }

    /**
     * Each user may place 5 orders per minute, counted across every instance of the service. A tighter limit of 3
     * is being tried in shadow mode ({@code shadow: true} in {@code application.yml}): its would-be refusals show
     * in the metrics and the log, and no caller is refused by it.
     */
    @PostMapping
    @RateLimit(name = "order-submit", key = "#userId")
    @RateLimit(name = "order-submit-trial", key = "#userId")
    ResponseEntity<Order> submit(@RequestParam long userId) {
        Order order = store.create(userId);
        return ResponseEntity.created(ServletUriComponentsBuilder.fromCurrentRequestUri()
                        .replaceQuery(null).path("/{id}").buildAndExpand(order.id()).toUri())
                .body(order);
    }

    /**
     * One quota for everybody: 100 reads per second protect the order database. A hot key shared by every instance,
     * so each instance leases permits from it ({@code lease = "auto"}) instead of asking Redis for every read.
     */
    @GetMapping("/{id}")
    @RateLimit(name = "order-detail", algorithm = "TOKEN_BUCKET", lease = "auto")
    Order detail(@PathVariable long id) {
        return store.find(id).orElseThrow(() -> new OrderNotFoundException(id));
    }

    /**
     * Clients poll this while an order is processed. Each order may be polled twice per 10 seconds; beyond that the
     * limit's fallback answers 200 without reading the store, telling the client when to poll again (a polling
     * client handles that more gracefully than a 429).
     */
    @GetMapping("/{id}/status")
    @RateLimit(name = "order-status", key = "#id", fallbackMethod = "pollLater")
    OrderStatus status(@PathVariable long id) {
        Order order = store.find(id).orElseThrow(() -> new OrderNotFoundException(id));
        return new OrderStatus(id, order.status(), 0);
    }

    /** The fallback of {@code order-status}: same parameters, plus the refusal, which says when to come back. */
    private OrderStatus pollLater(long id, RateLimitExceededException refusal) {
        long seconds = Math.max(1, (refusal.decision().retryAfter().toMillis() + 999) / 1000);
        return new OrderStatus(id, null, seconds);
    }
}
