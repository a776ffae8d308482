package io.guard.spring.actuate;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.guard.breaker.CircuitBreaker;
import io.guard.ratelimit.RateLimitPolicy;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.jspecify.annotations.Nullable;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The {@code guard} actuator endpoint: every circuit breaker and rate limiter with its state, numbers and
 * configuration, and manual state changes for breakers.
 *
 * <p>The id is {@code guard}, not {@code circuitbreakers}, so that Guard and Resilience4j can live in one
 * application (two endpoints with one id stop start-up). State changes are write operations and the endpoint's
 * default access is read-only: forcing a production breaker open must be something an operator enabled on
 * purpose ({@code management.endpoint.guard.access=unrestricted}).
 */
@Endpoint(id = "guard", defaultAccess = Access.READ_ONLY)
public class GuardEndpoint {

    private final GuardRegistries registries;

    GuardEndpoint(GuardRegistries registries) {
        this.registries = registries;
    }

    /** Every breaker and every limiter, each keyed and sorted by name. */
    @ReadOperation
    public GuardReport guard() {
        Map<String, CircuitBreakerDescriptor> breakers = new LinkedHashMap<>();
        for (CircuitBreaker breaker : registries.breakers()) {
            breakers.put(breaker.name(), CircuitBreakerDescriptor.of(breaker));
        }
        Map<String, RateLimiterDescriptor> limiters = new LinkedHashMap<>();
        for (RateLimitPolicy policy : registries.policies()) {
            limiters.put(policy.name(), registries.describe(policy));
        }
        return new GuardReport(breakers, limiters);
    }

    /**
     * The breaker and/or limiter with this name (a breaker and a limiter may share a name), or {@code null}, which
     * the web layer turns into 404, when neither exists.
     */
    @ReadOperation
    @Nullable
    public GuardEntry guardEntry(@Selector String name) {
        CircuitBreakerDescriptor breaker = registries.breaker(name).map(CircuitBreakerDescriptor::of).orElse(null);
        RateLimiterDescriptor limiter = registries.policy(name).map(registries::describe).orElse(null);
        if (breaker == null && limiter == null) {
            return null;
        }
        return new GuardEntry(name, breaker, limiter);
    }

    /**
     * Moves the breaker {@code name} to {@code state} ({@code CLOSED}, {@code OPEN}, {@code HALF_OPEN},
     * {@code FORCED_OPEN}, {@code DISABLED}, {@code METRICS_ONLY}, or {@code reset}; any case) and returns it as it
     * is afterwards; {@code null} (404 on the web) when there is no such breaker: this never creates one.
     *
     * @throws InvalidEndpointRequestException (400) naming the value when {@code state} is not one of those
     */
    @WriteOperation
    @Nullable
    public CircuitBreakerDescriptor changeState(@Selector String name, String state) {
        Transition transition = Transition.parse(state);
        Optional<CircuitBreaker> breaker = registries.breaker(name);
        breaker.ifPresent(transition::applyTo);
        return breaker.map(CircuitBreakerDescriptor::of).orElse(null);
    }

    /**
     * @param circuitBreakers every breaker by name
     * @param rateLimiters    every limiter by name
     */
    public record GuardReport(Map<String, CircuitBreakerDescriptor> circuitBreakers,
                              Map<String, RateLimiterDescriptor> rateLimiters) {
    }

    /**
     * @param name           the name asked for
     * @param circuitBreaker the breaker of that name, absent if none
     * @param rateLimiter    the limiter of that name, absent if none
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record GuardEntry(String name, @Nullable CircuitBreakerDescriptor circuitBreaker,
                             @Nullable RateLimiterDescriptor rateLimiter) {
    }

    /** The state changes an operator may ask for. */
    enum Transition {
        CLOSED, OPEN, HALF_OPEN, FORCED_OPEN, DISABLED, METRICS_ONLY, RESET;

        static final String ACCEPTED = Arrays.stream(values())
                .map(t -> t == RESET ? "reset" : t.name()).collect(Collectors.joining(", "));

        static Transition parse(@Nullable String state) {
            if (state == null || state.isBlank()) {
                throw new InvalidEndpointRequestException("Missing 'state'; expected one of " + ACCEPTED,
                        "Missing 'state'; expected one of " + ACCEPTED);
            }
            try {
                return valueOf(state.trim().toUpperCase(Locale.ROOT));
            }
            catch (IllegalArgumentException ex) {
                String message = "Unknown state '" + state + "'; expected one of " + ACCEPTED;
                throw new InvalidEndpointRequestException(message, message);
            }
        }

        void applyTo(CircuitBreaker breaker) {
            switch (this) {
                case CLOSED -> breaker.transitionToClosedState();
                case OPEN -> breaker.transitionToOpenState();
                case HALF_OPEN -> breaker.transitionToHalfOpenState();
                case FORCED_OPEN -> breaker.transitionToForcedOpenState();
                case DISABLED -> breaker.transitionToDisabledState();
                case METRICS_ONLY -> breaker.transitionToMetricsOnlyState();
                case RESET -> breaker.reset();
            }
        }
    }
}
