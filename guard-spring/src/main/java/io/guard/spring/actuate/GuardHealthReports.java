package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.window.Snapshot;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import org.jspecify.annotations.Nullable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What Guard's {@code guard} health component says, in terms free of Spring Boot's health API, which moved between
 * Boot 3 ({@code org.springframework.boot.actuate.health}) and Boot 4 ({@code org.springframework.boot.health}).
 * Each Boot line's starter turns these reports into its own {@code Health} objects, so the rules (which state is
 * which status, which details are shown) live here once.
 *
 * <p>An open breaker is the breaker doing its job (the downstream is sick, this service is fine), so by default OPEN
 * and HALF_OPEN are reported with their own codes, which Spring Boot's default status order ignores when
 * aggregating and maps to HTTP 200: a readiness probe does not take the instance out of rotation because a
 * dependency is down. With {@code guard.circuit-breaker.instances.<name>.health-fails-when-open=true} the breaker
 * reports OPEN as {@code DOWN} and FORCED_OPEN as {@code OUT_OF_SERVICE}, which do fail the aggregate.
 */
public final class GuardHealthReports {

    /** The name of the group holding one child per breaker. */
    public static final String CIRCUIT_BREAKERS = "circuitBreakers";
    /** The name of the rate-limit backend's child. */
    public static final String RATE_LIMIT_BACKEND = "rateLimitBackend";
    /** The backend's status while it does not answer and every limit serves by its failure policy. */
    public static final String FAILING_OVER = "FAILING_OVER";

    /** One health report: a status code with its description, and the details shown with it. */
    public record Report(String status, @Nullable String description, Map<String, Object> details) {
    }

    private final GuardRegistries registries;
    private final Predicate<String> failsWhenOpen;

    private GuardHealthReports(GuardRegistries registries, Predicate<String> failsWhenOpen) {
        this.registries = registries;
        this.failsWhenOpen = failsWhenOpen;
    }

    /**
     * @param breakers      the breaker registry, or {@code null} in an application without one
     * @param limiters      the rate-limiter registry, or {@code null} in an application without one
     * @param failsWhenOpen whether the named breaker reports OPEN as DOWN
     */
    public static GuardHealthReports of(@Nullable CircuitBreakerRegistry breakers,
                                        @Nullable RateLimiterRegistry limiters, Predicate<String> failsWhenOpen) {
        return new GuardHealthReports(new GuardRegistries(breakers, limiters), failsWhenOpen);
    }

    /** Whether the application has breakers to report (a registry, possibly still empty). */
    public boolean hasBreakers() {
        return registries.breakerRegistry() != null;
    }

    /** Whether the application has a rate-limit backend to report. */
    public boolean hasBackend() {
        return registries.limiterRegistry() != null;
    }

    /** The names of the breakers that exist now, sorted. */
    public List<String> breakerNames() {
        return registries.breakers().stream().map(CircuitBreaker::name).toList();
    }

    /** The report of the named breaker; empty for a name that is no breaker (never creates one). */
    public Optional<Report> breaker(String name) {
        return registries.breaker(name).map(this::report);
    }

    /**
     * Whether the rate-limit backend answers and, while it does not, what the limits do instead. A backend that
     * does not answer is {@code FAILING_OVER} (a code of its own, which Boot's default status order ignores, so the
     * application stays UP and ready) while every limit can still serve by its {@code on-backend-failure} policy
     * (FAIL_OPEN, LOCAL); it is {@code DOWN} once some limit refuses its calls (FAIL_CLOSED), because then the
     * application does fail requests. The details name each limit's policy and what it does, since when
     * ({@code since}) and why ({@code reason}: {@code timeout}, {@code connection}, {@code breaker-open}, {@code error}).
     */
    public Report backend() {
        return registries.backend().map(backend -> {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("backend", backend.name());
            if (backend.breakerState() != null) {
                details.put("breakerState", backend.breakerState());
            }
            if (backend.lastError() != null) {
                details.put("lastError", backend.lastError());
                details.put("lastErrorTime", backend.lastErrorTime());
            }
            if (backend.up()) {
                return new Report("UP", null, details);
            }
            if (backend.since() != null) {
                details.put("since", backend.since());
            }
            if (backend.reason() != null) {
                details.put("reason", backend.reason());
            }
            Map<String, String> policies = new LinkedHashMap<>();
            boolean refusing = false;
            for (RateLimitPolicy policy : registries.policies()) {
                policies.put(policy.name(), whatItDoes(policy.onBackendFailure()));
                refusing |= policy.onBackendFailure() == BackendFailurePolicy.FAIL_CLOSED;
            }
            details.put("failurePolicies", policies);
            return refusing
                    ? new Report("DOWN", "The backend does not answer; FAIL_CLOSED limits refuse their calls", details)
                    : new Report(FAILING_OVER, "The backend does not answer; every limit decides by its "
                            + "on-backend-failure policy", details);
        }).orElseGet(() -> new Report("UNKNOWN", null, Map.of()));
    }

    private static String whatItDoes(BackendFailurePolicy policy) {
        return switch (policy) {
            case FAIL_OPEN -> "FAIL_OPEN: calls are allowed without counting";
            case FAIL_CLOSED -> "FAIL_CLOSED: calls are refused with 503";
            case LOCAL -> "LOCAL: calls are counted in this instance";
        };
    }

    private Report report(CircuitBreaker breaker) {
        boolean fails = failsWhenOpen.test(breaker.name());
        var state = breaker.state();
        Report status = switch (state) {
            case CLOSED, DISABLED, METRICS_ONLY -> new Report("UP", null, Map.of());
            case HALF_OPEN -> new Report("CIRCUIT_HALF_OPEN", "Trial calls decide between CLOSED and OPEN", Map.of());
            case OPEN -> fails ? new Report("DOWN", null, Map.of())
                    : new Report("CIRCUIT_OPEN", "Calls are refused until the wait in OPEN ends", Map.of());
            case FORCED_OPEN -> fails ? new Report("OUT_OF_SERVICE", null, Map.of())
                    : new Report("CIRCUIT_FORCED_OPEN", "Calls are refused until an operator closes it", Map.of());
        };
        Snapshot s = breaker.snapshot();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("state", state.name());
        details.put("failureRate", s.failureRate());
        details.put("failureRateThreshold", breaker.config().failureRateThreshold());
        details.put("slowCallRate", s.slowCallRate());
        details.put("slowCallRateThreshold", breaker.config().slowCallRateThreshold());
        details.put("bufferedCalls", s.calls());
        details.put("failedCalls", s.failedCalls());
        details.put("slowCalls", s.slowCalls());
        details.put("notPermittedCalls", breaker.notPermittedCalls());
        details.put("remainingOpenTimeMs", breaker.remainingOpenTime().toMillis());
        return new Report(status.status(), status.description(), details);
    }
}
