package io.guard.spring.breaker;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.State;
import io.guard.event.GuardEvent;
import io.guard.time.Scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * {@code share-open}: a breaker that opens by its own decision on this instance opens on every instance with fleet
 * control, for what is left of the same wait. It watches the breakers that share their openings for a transition to
 * OPEN and hands it to the sender; it applies the openings of other instances to a breaker that is deciding by itself
 * (CLOSED or HALF_OPEN), never over an operator's FORCED_OPEN, DISABLED or METRICS_ONLY, and never sends on an
 * opening it applied itself, so that one opening travels once.
 */
final class SharedOpenings {

    private final Predicate<String> shares;
    private final Scheduler timer;
    private final BiConsumer<String, Duration> send;
    /** The breakers this instance is opening for another instance right now, on this thread or another. */
    private final Set<String> applying = ConcurrentHashMap.newKeySet();

    /**
     * @param shares which breakers share their openings, by name
     * @param send   sends an opening (breaker name, wait); run on the timer's callback thread, since it waits for
     *               the store while the breaker's listeners must be fast
     */
    SharedOpenings(Predicate<String> shares, Scheduler timer, BiConsumer<String, Duration> send) {
        this.shares = shares;
        this.timer = timer;
        this.send = send;
    }

    /** Watches {@code breaker} for its own openings, if it shares them. */
    void watch(CircuitBreaker breaker) {
        if (shares.test(breaker.name())) {
            breaker.addListener(event -> opened(breaker, event));
        }
    }

    private void opened(CircuitBreaker breaker, GuardEvent event) {
        if (event.type() != GuardEvent.Type.STATE_TRANSITION || !State.OPEN.name().equals(event.details().get("to"))
                || applying.contains(breaker.name())) {
            return;
        }
        Duration left = breaker.remainingOpenTime();
        Duration wait = left.isZero() ? breaker.config().waitDurationInOpenState() : left;
        timer.schedule(Duration.ZERO, () -> send.accept(breaker.name(), wait));
    }

    /**
     * Opens {@code breaker} for what is left of the opening's wait at {@code now} (at most the whole wait, since the
     * sender's clock may be ahead of this one); returns whether it did. An opening whose wait is over by this clock,
     * or a breaker an operator holds or that is open already, is left as it is.
     */
    boolean apply(CircuitBreaker breaker, FleetCommand opening, Instant now) {
        State state = breaker.state();
        if (state != State.CLOSED && state != State.HALF_OPEN) {
            return false;
        }
        Duration left = opening.openFor().minus(Duration.between(opening.at(), now));
        if (left.compareTo(opening.openFor()) > 0) {
            left = opening.openFor();
        }
        if (left.isNegative() || left.isZero()) {
            return false;
        }
        applying.add(breaker.name());
        try {
            breaker.transitionToOpenStateFor(left);
        } finally {
            applying.remove(breaker.name());
        }
        return true;
    }
}
