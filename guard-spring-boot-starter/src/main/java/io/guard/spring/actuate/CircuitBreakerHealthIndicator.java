package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.window.Snapshot;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/**
 * The health of one circuit breaker. An open breaker is the breaker doing its job (the downstream is sick, this
 * service is fine), so by default OPEN and HALF_OPEN are reported with their own codes, which Spring Boot's
 * default status order ignores when aggregating and maps to HTTP 200: a readiness probe does not take the
 * instance out of rotation because a dependency is down. With
 * {@code guard.circuit-breaker.instances.<name>.health-fails-when-open=true} the breaker reports OPEN as
 * {@code DOWN} and FORCED_OPEN as {@code OUT_OF_SERVICE}, which do fail the aggregate (HTTP 503).
 */
final class CircuitBreakerHealthIndicator implements HealthIndicator {

    /** An OPEN breaker that does not fail the aggregate. */
    static final Status CIRCUIT_OPEN = new Status("CIRCUIT_OPEN", "Calls are refused until the wait in OPEN ends");
    /** A breaker letting trial calls through. */
    static final Status CIRCUIT_HALF_OPEN = new Status("CIRCUIT_HALF_OPEN", "Trial calls decide between CLOSED and OPEN");
    /** A breaker an operator forced open, not failing the aggregate. */
    static final Status CIRCUIT_FORCED_OPEN = new Status("CIRCUIT_FORCED_OPEN", "Calls are refused until an operator closes it");

    private final CircuitBreaker breaker;
    private final boolean failsWhenOpen;

    CircuitBreakerHealthIndicator(CircuitBreaker breaker, boolean failsWhenOpen) {
        this.breaker = breaker;
        this.failsWhenOpen = failsWhenOpen;
    }

    @Override
    public Health health() {
        var state = breaker.state();
        Status status = switch (state) {
            case CLOSED, DISABLED, METRICS_ONLY -> Status.UP;
            case HALF_OPEN -> CIRCUIT_HALF_OPEN;
            case OPEN -> failsWhenOpen ? Status.DOWN : CIRCUIT_OPEN;
            case FORCED_OPEN -> failsWhenOpen ? Status.OUT_OF_SERVICE : CIRCUIT_FORCED_OPEN;
        };
        Snapshot s = breaker.snapshot();
        return Health.status(status)
                .withDetail("state", state.name())
                .withDetail("failureRate", s.failureRate())
                .withDetail("failureRateThreshold", breaker.config().failureRateThreshold())
                .withDetail("slowCallRate", s.slowCallRate())
                .withDetail("slowCallRateThreshold", breaker.config().slowCallRateThreshold())
                .withDetail("bufferedCalls", s.calls())
                .withDetail("failedCalls", s.failedCalls())
                .withDetail("slowCalls", s.slowCalls())
                .withDetail("notPermittedCalls", breaker.notPermittedCalls())
                .withDetail("remainingOpenTimeMs", breaker.remainingOpenTime().toMillis())
                .build();
    }
}
