package io.guard.spring.breaker;

import io.guard.breaker.BreakerStateStore;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.time.BoundedWait;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which instance is in which state: this instance reports its breakers' states to the store every poll interval (they
 * live three intervals there, so a stopped instance drops out) and reads every instance's report back. The actuator
 * shows the last read, never waiting for the store, with the time it was read: while the store cannot be reached the
 * view only grows older.
 */
public final class FleetView {

    private static final Logger log = LoggerFactory.getLogger(FleetView.class);

    private final CircuitBreakerRegistry registry;
    private final BreakerStateStore store;
    private final String instanceId;
    private final Clock clock;
    private final Duration ttl;
    private final Duration storeTimeout;
    private volatile Snapshot last = new Snapshot(Map.of(), null);

    FleetView(CircuitBreakerRegistry registry, BreakerStateStore store, String instanceId, Clock clock,
              Duration pollInterval, Duration storeTimeout) {
        this.registry = registry;
        this.store = store;
        this.instanceId = instanceId;
        this.clock = clock;
        this.ttl = pollInterval.multipliedBy(3);
        this.storeTimeout = storeTimeout;
    }

    /**
     * The states of every instance's breakers as last read, by instance name, then breaker name.
     *
     * @param instances what each live instance reported
     * @param readAt    when this instance read them; null before the first read succeeded
     */
    public record Snapshot(Map<String, Map<String, String>> instances, Instant readAt) {
    }

    /** The last read; see {@link Snapshot}. */
    public Snapshot last() {
        return last;
    }

    /** Reports this instance's states and reads every instance's; a store that does not answer keeps the last read. */
    void refreshQuietly() {
        Map<String, String> states = new TreeMap<>();
        for (CircuitBreaker breaker : registry.all()) {
            states.put(breaker.name(), breaker.state().name());
        }
        try {
            BoundedWait.join(store.report(instanceId, states, ttl), storeTimeout, "breaker state store");
            Map<String, Map<String, String>> read = BoundedWait.join(store.reports(), storeTimeout,
                    "breaker state store");
            Map<String, Map<String, String>> sorted = new TreeMap<>();
            read.forEach((instance, reported) -> sorted.put(instance, Map.copyOf(new TreeMap<>(reported))));
            last = new Snapshot(java.util.Collections.unmodifiableMap(sorted), clock.instant());
        } catch (RuntimeException e) {
            log.debug("Could not report or read the fleet's breaker states ({}); showing the ones read at {}",
                    e.toString(), Optional.ofNullable(last.readAt()).map(Instant::toString).orElse("no time yet"));
        }
    }
}
