package io.guard.ratelimit;

import io.guard.event.GuardEvent;
import io.guard.event.GuardEventListener;
import io.guard.ratelimit.RateLimiterRegistry.Limit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a decided request of a {@link RateLimiterRegistry} leaves behind: one count on its limit (permitted, rejected
 * or error), a report to every observer, an event when it was refused or the backend failed, a throttled warning when
 * a failure policy answered, and the backend's health as last seen by a request. Events name the limit, never the
 * resolved key, which may be personal data.
 */
final class DecisionRecorder {

    /** The registry's own logger: the name users know and configure. */
    private static final Logger log = LoggerFactory.getLogger(RateLimiterRegistry.class);

    private final RateLimiter backend;
    private final Clock clock;
    private final List<GuardEventListener> listeners = new CopyOnWriteArrayList<>();
    private final List<RateLimitObserver> observers = new CopyOnWriteArrayList<>();
    private volatile BackendHealth lastSeen;

    DecisionRecorder(RateLimiter backend, Clock clock) {
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

    /** The backend's own view of its health if it keeps one, else from the last request recorded here. */
    BackendHealth backendHealth() {
        return backend.health().orElse(lastSeen);
    }

    /**
     * Records the final answer to one request: {@code outcome} if the backend answered, else {@code error}; a
     * failure policy's answer ({@link BackendOutcome#backendError()}) counts as an error. Returns the outcome's
     * decision, marked {@link Decision#failedOver failed over} when a failure policy gave it, or {@code null} when
     * there is none ({@code error}).
     */
    Decision record(Limit limit, BackendOutcome outcome, Throwable error, long latencyNanos) {
        return record(limit, limit.policy(), outcome, error, latencyNanos);
    }

    /** {@link #record(Limit, BackendOutcome, Throwable, long)} for a request decided under {@code policy}. */
    Decision record(Limit limit, RateLimitPolicy policy, BackendOutcome outcome, Throwable error, long latencyNanos) {
        Decision decision = outcome == null ? null : outcome.decision();
        boolean allowed = decision != null && decision.allowed();
        Throwable failure = error != null ? Failures.unwrap(error) : outcome.backendError();
        if (failure != null && decision != null) {
            decision = decision.failedOver(BackendFailureReason.of(failure));
        }
        if (failure != null) {
            limit.errors.increment();
            if (backend.health().isEmpty()) {
                lastSeen = lastSeen.failed(failure, clock.instant());
            }
            warnFailedOver(limit, failure);
            for (RateLimitObserver observer : observers) {
                try {
                    observer.onBackendError(policy, failure, latencyNanos);
                } catch (RuntimeException e) {
                    ignored(e);
                }
            }
            publish(limit, GuardEvent.Type.BACKEND_FAILURE, latencyNanos, Map.of(
                    "error", Failures.describe(failure),
                    "onBackendFailure", policy.onBackendFailure().name(),
                    "backend", backend.backendName()));
        } else {
            (allowed ? limit.permitted : limit.rejected).increment();
            if (!lastSeen.up()) {
                lastSeen = lastSeen.recovered();
            }
            for (RateLimitObserver observer : observers) {
                try {
                    observer.onDecision(policy, decision, latencyNanos);
                } catch (RuntimeException e) {
                    ignored(e);
                }
            }
        }
        if (decision != null && !allowed) {
            publish(limit, GuardEvent.Type.RATE_LIMITED, latencyNanos, Map.of(
                    "retryAfterMillis", Long.toString(ceilMillis(decision.retryAfter())),
                    "remaining", Long.toString(decision.remaining()),
                    "limit", Long.toString(decision.limit())));
        }
        return decision;
    }

    /**
     * Reports a charge after the call to every observer; a failed one is logged at WARN, once for the first and then
     * at most once per limit every 10 s, with the number held back: it never fails the caller's call, but a limit
     * whose costs go uncharged limits less than it says.
     */
    void charged(Limit limit, RateLimitPolicy policy, long permits, Quota quota, Throwable error) {
        Throwable failure = error == null ? null : Failures.unwrap(error);
        for (RateLimitObserver observer : observers) {
            try {
                observer.onCharge(policy, permits, quota, failure);
            } catch (RuntimeException e) {
                ignored(e);
            }
        }
        long heldBack = failure == null ? -1 : limit.chargeLog.pass(clock.millis());
        if (heldBack >= 0) {
            log.warn("Rate limit '{}': a cost of {} permit(s) after the call could not be charged ({}); the call's"
                    + " result stands{}", policy.name(), permits, Failures.describe(failure),
                    LogThrottle.heldBack(heldBack));
        }
    }

    /**
     * One WARN line for the first decision a failure policy made, then at most one per limit every 10 s, with the
     * number held back: a failure policy switched on silently is how a limit stops limiting unnoticed.
     */
    private void warnFailedOver(Limit limit, Throwable failure) {
        long heldBack = limit.failureLog.pass(clock.millis());
        if (heldBack < 0) {
            return;
        }
        RateLimitPolicy policy = limit.policy();
        log.warn("Rate limit '{}': backend {} could not decide ({}: {}); on-backend-failure {} {}{}", policy.name(),
                backend.backendName(), BackendFailureReason.of(failure).tag(), Failures.describe(failure),
                policy.onBackendFailure(), switch (policy.onBackendFailure()) {
                    case FAIL_OPEN -> "allowed the call without counting it";
                    case FAIL_CLOSED -> "refused the call";
                    case LOCAL -> "counted the call in this instance only";
                }, LogThrottle.heldBack(heldBack));
    }

    private void publish(Limit limit, GuardEvent.Type type, long latencyNanos, Map<String, String> details) {
        GuardEvent event = new GuardEvent(GuardEvent.Source.RATE_LIMITER, limit.policy().name(), type, clock.instant(),
                Duration.ofNanos(latencyNanos), details);
        limit.events.onEvent(event);
        for (GuardEventListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (RuntimeException e) {
                ignored(e);
            }
        }
    }

    /** Observers and listeners are called in a plain loop, not through a lambda per call, on every decision. */
    private static void ignored(RuntimeException e) {
        log.warn("A rate-limit listener or observer threw; ignored", e);
    }

    private static long ceilMillis(Duration duration) {
        long millis = duration.toMillis();
        return duration.minusMillis(millis).isZero() ? millis : millis + 1;
    }
}
