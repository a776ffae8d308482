package io.guard.ratelimit;

import io.guard.event.GuardEvent;
import io.guard.event.GuardEventListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a {@link RateLimiterRegistry} does with each final answer: counts it once on its limit (permitted, rejected or
 * error), tells the observers, publishes RATE_LIMITED and BACKEND_FAILURE events, and remembers the backend's health
 * for backends that keep none. Apart from the registry so that deciding and recording read on their own.
 */
final class DecisionRecords {

    private static final Logger log = LoggerFactory.getLogger(RateLimiterRegistry.class);

    private final RateLimiter backend;
    private final Clock clock;
    private final List<GuardEventListener> listeners = new CopyOnWriteArrayList<>();
    private final List<RateLimitObserver> observers = new CopyOnWriteArrayList<>();
    private volatile BackendHealth lastSeen;

    DecisionRecords(RateLimiter backend, Clock clock) {
        this.backend = backend;
        this.clock = clock;
        this.lastSeen = BackendHealth.up(backend.backendName());
    }

    void addListener(GuardEventListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void addObserver(RateLimitObserver observer) {
        observers.add(Objects.requireNonNull(observer, "observer"));
    }

    /** The backend's own view if it keeps one, else from the last request recorded here. */
    BackendHealth backendHealth() {
        return backend.health().orElse(lastSeen);
    }

    void record(RegisteredLimit limit, BackendOutcome outcome, Throwable error, long latencyNanos) {
        RateLimitPolicy policy = limit.policy();
        Throwable failure = error != null ? Failures.unwrap(error) : outcome.backendError();
        if (failure != null) {
            limit.errors.increment();
            if (backend.health().isEmpty()) {
                lastSeen = new BackendHealth(false, backend.backendName(), null, Failures.describe(failure),
                        clock.instant());
            }
            observers.forEach(o -> notify(() -> o.onBackendError(policy, failure, latencyNanos)));
            publish(limit, GuardEvent.Type.BACKEND_FAILURE, latencyNanos, Map.of(
                    "error", Failures.describe(failure),
                    "onBackendFailure", policy.onBackendFailure().name(),
                    "backend", backend.backendName()));
        } else {
            (outcome.decision().allowed() ? limit.permitted : limit.rejected).increment();
            if (!lastSeen.up()) {
                lastSeen = new BackendHealth(true, backend.backendName(), null, lastSeen.lastError(),
                        lastSeen.lastErrorTime());
            }
            observers.forEach(o -> notify(() -> o.onDecision(policy, outcome.decision(), latencyNanos)));
        }
        if (outcome != null && !outcome.decision().allowed()) {
            publish(limit, GuardEvent.Type.RATE_LIMITED, latencyNanos, Map.of(
                    "retryAfterMillis", Long.toString(ceilMillis(outcome.decision().retryAfter())),
                    "remaining", Long.toString(outcome.decision().remaining()),
                    "limit", Long.toString(outcome.decision().limit())));
        }
    }

    private void publish(RegisteredLimit limit, GuardEvent.Type type, long latencyNanos, Map<String, String> details) {
        GuardEvent event = new GuardEvent(GuardEvent.Source.RATE_LIMITER, limit.policy().name(), type, clock.instant(),
                Duration.ofNanos(latencyNanos), details);
        limit.events.onEvent(event);
        listeners.forEach(l -> notify(() -> l.onEvent(event)));
    }

    private static void notify(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            log.warn("A rate-limit listener or observer threw; ignored", e);
        }
    }

    private static long ceilMillis(Duration duration) {
        long millis = duration.toMillis();
        return duration.minusMillis(millis).isZero() ? millis : millis + 1;
    }
}
