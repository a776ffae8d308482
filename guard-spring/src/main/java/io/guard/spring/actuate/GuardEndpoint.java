package io.guard.spring.actuate;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.guard.breaker.CircuitBreaker;
import io.guard.bulkhead.Bulkhead;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.lease.LeaseSize;
import io.guard.ratelimit.lease.LeaseStats;
import io.guard.spring.breaker.FleetBreakers;
import io.guard.spring.ratelimit.GuardLeases;
import io.guard.spring.ratelimit.LimitOverride;
import io.guard.spring.ratelimit.LiveLimits;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
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
    private final @Nullable LiveLimits live;

    private final @Nullable GuardLeases leases;
    private final BreakerWrites breakerWrites;

    GuardEndpoint(GuardRegistries registries) {
        this(registries, null, null, null);
    }

    GuardEndpoint(GuardRegistries registries, @Nullable LiveLimits live, @Nullable GuardLeases leases) {
        this(registries, live, leases, null);
    }

    /**
     * @param live   the limits' run-time overrides; null when limits cannot be overridden
     * @param leases what this instance leases; null when nothing can lease
     * @param fleet  fleet-wide breaker control; null unless enabled
     */
    GuardEndpoint(GuardRegistries registries, @Nullable LiveLimits live, @Nullable GuardLeases leases,
                  @Nullable FleetBreakers fleet) {
        this.registries = registries;
        this.live = live;
        this.leases = leases;
        this.breakerWrites = new BreakerWrites(registries, fleet);
    }

    /** Every breaker and every limiter, each keyed and sorted by name. */
    @ReadOperation
    public GuardReport guard() {
        Map<String, CircuitBreakerDescriptor> breakers = new LinkedHashMap<>();
        for (CircuitBreaker breaker : registries.breakers()) {
            breakers.put(breaker.name(), breakerWrites.describe(breaker));
        }
        Map<String, RateLimiterDescriptor> limiters = new LinkedHashMap<>();
        for (RateLimitPolicy policy : registries.policies()) {
            limiters.put(policy.name(), describe(policy));
        }
        Map<String, BulkheadDescriptor> bulkheads = new LinkedHashMap<>();
        for (Bulkhead bulkhead : registries.bulkheads()) {
            bulkheads.put(bulkhead.name(), BulkheadDescriptor.of(bulkhead));
        }
        return new GuardReport(breakers, limiters, bulkheads,
                leases == null ? null : leases.stats().orElse(null), breakerWrites.fleet());
    }

    /**
     * The breaker and/or limiter with this name (a breaker and a limiter may share a name), or {@code null}, which
     * the web layer turns into 404, when neither exists.
     */
    @ReadOperation
    @Nullable
    public GuardEntry guardEntry(@Selector String name) {
        CircuitBreakerDescriptor breaker = registries.breaker(name).map(breakerWrites::describe).orElse(null);
        RateLimiterDescriptor limiter = registries.policy(name).map(this::describe).orElse(null);
        if (breaker == null && limiter == null) {
            return null;
        }
        return new GuardEntry(name, breaker, limiter);
    }

    /**
     * Moves the breaker {@code name} to {@code state} (on this instance, or with {@code scope} {@code fleet} on every
     * instance, see {@link BreakerWrites}), or overrides the limit {@code name} (any of {@code rate},
     * {@code interval}, {@code algorithm}, {@code shadow}) on every instance sharing the backend. Returns the breaker
     * or limiter as it is afterwards; {@code null} (404 on the web) when there is none of that name: this never
     * creates one. Over JMX, which carries no principal, a fleet-wide change is logged as asked by {@code jmx}.
     *
     * @throws InvalidEndpointRequestException (400) naming the field and value when a value is invalid, or when
     *                                         neither a state nor an override is given
     */
    @WriteOperation
    @Nullable
    public Object changeState(@Selector String name, @org.springframework.lang.Nullable String state,
                              @org.springframework.lang.Nullable Long rate,
                              @org.springframework.lang.Nullable String interval,
                              @org.springframework.lang.Nullable String algorithm,
                              @org.springframework.lang.Nullable Boolean shadow,
                              @org.springframework.lang.Nullable String scope) {
        return write(name, state, rate, interval, algorithm, shadow, scope, "jmx");
    }

    /** {@link #changeState(String, String, Long, String, String, Boolean, String)} on this instance's scope. */
    @Nullable
    public Object changeState(String name, @Nullable String state, @Nullable Long rate, @Nullable String interval,
                              @Nullable String algorithm, @Nullable Boolean shadow) {
        return changeState(name, state, rate, interval, algorithm, shadow, null);
    }

    /** The write of every protocol; {@code by} names who asked, for the logs of a fleet-wide change. */
    @Nullable
    Object write(String name, @Nullable String state, @Nullable Long rate, @Nullable String interval,
                 @Nullable String algorithm, @Nullable Boolean shadow, @Nullable String scope, String by) {
        boolean overriding = rate != null || interval != null || algorithm != null || shadow != null;
        if (state != null && overriding) {
            throw invalid("Give either 'state' (a breaker) or rate, interval, algorithm, shadow (a limit), not both");
        }
        if (!overriding) {
            return breakerWrites.change(name, state, scope, by);
        }
        if (scope != null) {
            throw invalid("'scope' applies to a breaker's state only: a limit's override always reaches every "
                    + "instance sharing the backend");
        }
        if (live == null || registries.policy(name).isEmpty()) {
            return null;
        }
        Duration parsedInterval = interval == null ? null : LimitOverrideRequest.interval(interval);
        Algorithm parsedAlgorithm = algorithm == null ? null : LimitOverrideRequest.algorithm(algorithm);
        try {
            live.override(name, rate, parsedInterval, parsedAlgorithm, shadow, "actuator");
        } catch (IllegalArgumentException e) {
            throw invalid("Invalid override of rate limit '" + name + "': " + e.getMessage());
        }
        return registries.policy(name).map(this::describe).orElse(null);
    }

    /**
     * Breaker state changes on this instance only: see
     * {@link #changeState(String, String, Long, String, String, Boolean, String)}.
     */
    @Nullable
    public CircuitBreakerDescriptor changeState(String name, @Nullable String state) {
        return breakerWrites.change(name, state, null, "jmx");
    }

    /**
     * Removes the run-time override of the limit {@code name} on every instance sharing the backend: configuration
     * applies again. Returns the limit as it is afterwards; {@code null} (404 on the web) when there is no such limit.
     */
    @DeleteOperation
    @Nullable
    public RateLimiterDescriptor removeOverride(@Selector String name) {
        if (live == null || registries.policy(name).isEmpty()) {
            return null;
        }
        live.removeOverride(name);
        return registries.policy(name).map(this::describe).orElse(null);
    }

    private RateLimiterDescriptor describe(RateLimitPolicy policy) {
        RateLimiterDescriptor plain = registries.describe(policy);
        LeaseSize lease = leases == null ? LeaseSize.OFF : leases.sizeOf(policy.name());
        if (!lease.off() && LeaseSize.supports(policy.algorithm())) {
            plain = plain.withLease(lease.toString());
        }
        if (live == null) {
            return plain;
        }
        Optional<LimitOverride> override = live.overrideOf(policy.name());
        RateLimiterDescriptor.ActiveOverride active = override.map(o -> new RateLimiterDescriptor.ActiveOverride(
                o.source(), o.at().toString(), o.rate(), o.interval() == null ? null : o.interval().toMillis(),
                o.algorithm() == null ? null : o.algorithm().name(), o.shadow(), live.shared(),
                live.configuredPolicy(policy.name()).map(RateLimiterDescriptor::policyOf).orElse(null)))
                .orElse(null);
        var refreshed = live.reconfiguredOf(policy.name());
        String source = active != null ? "override" : refreshed.map(LiveLimits.Reconfigured::source)
                .orElse("configuration");
        return plain.withOrigin(source, active, refreshed.map(r -> r.at().toString()).orElse(null));
    }

    static InvalidEndpointRequestException invalid(String message) {
        return new InvalidEndpointRequestException(message, message);
    }

    /**
     * @param circuitBreakers every breaker by name
     * @param rateLimiters    every limiter by name
     * @param bulkheads       every bulkhead ({@code @CircuitBreaker(maxConcurrentCalls)}) by name
     * @param leases          the leases this instance took, gave back and holds; absent when no limit leases
     * @param fleet           which instance is in which state; absent unless fleet-wide control is enabled
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record GuardReport(Map<String, CircuitBreakerDescriptor> circuitBreakers,
                              Map<String, RateLimiterDescriptor> rateLimiters,
                              Map<String, BulkheadDescriptor> bulkheads, @Nullable LeaseStats leases,
                              @Nullable FleetReport fleet) {
    }

    /**
     * @param instance  this instance's name
     * @param instances every instance's breakers' states, by instance name, then breaker name, as last read
     * @param readAt    when this instance last read them (ISO-8601); absent before the first read
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FleetReport(String instance, Map<String, Map<String, String>> instances, @Nullable String readAt) {
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
                String message = "Missing 'state'; expected one of " + ACCEPTED
                        + " (or, for a rate limit, one of rate, interval, algorithm, shadow)";
                throw new InvalidEndpointRequestException(message, message);
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
