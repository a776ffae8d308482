package io.guard.spring.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Everything under {@code guard.*}: circuit breakers, rate limits and event buffers. Read by the auto-configuration
 * and by the actuator support (for example {@code health-fails-when-open}).
 */
@ConfigurationProperties(prefix = "guard", ignoreUnknownFields = false)
public class GuardProperties {

    /** Whether Guard is active; false turns off the aspects, registries and HTTP answers. */
    private boolean enabled = true;

    /** Circuit breakers. */
    @NestedConfigurationProperty
    private CircuitBreakerProperties circuitBreaker = new CircuitBreakerProperties();

    /** Rate limits. */
    @NestedConfigurationProperty
    private RateLimitProperties rateLimit = new RateLimitProperties();

    /** A server-wide adaptive limit on incoming requests. */
    @NestedConfigurationProperty
    private ServerLimitProperties serverLimit = new ServerLimitProperties();

    /** Recent-event buffers. */
    private final Events events = new Events();

    /** Micrometer observations (traces) of decisions and breaker calls. */
    private final Observations observations = new Observations();

    /** Where Spring Framework 7's @Retryable and @ConcurrencyLimit run relative to Guard's aspects. */
    private final ResilientMethods resilientMethods = new ResilientMethods();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public CircuitBreakerProperties getCircuitBreaker() {
        return circuitBreaker;
    }

    public void setCircuitBreaker(CircuitBreakerProperties circuitBreaker) {
        this.circuitBreaker = circuitBreaker;
    }

    public RateLimitProperties getRateLimit() {
        return rateLimit;
    }

    public void setRateLimit(RateLimitProperties rateLimit) {
        this.rateLimit = rateLimit;
    }

    public ServerLimitProperties getServerLimit() {
        return serverLimit;
    }

    public void setServerLimit(ServerLimitProperties serverLimit) {
        this.serverLimit = serverLimit;
    }

    public Events getEvents() {
        return events;
    }

    public Observations getObservations() {
        return observations;
    }

    public ResilientMethods getResilientMethods() {
        return resilientMethods;
    }

    /** Spring Framework 7's {@code @Retryable} and {@code @ConcurrencyLimit} ({@code @EnableResilientMethods}). */
    public static class ResilientMethods {

        /**
         * Where Spring's @Retryable and @ConcurrencyLimit run: outside Guard's aspects (each retry spends a permit
         * and is a breaker call) or inside (one permit and one breaker call per call, however often retried).
         */
        private Position position = Position.OUTSIDE;

        public Position getPosition() {
            return position;
        }

        public void setPosition(Position position) {
            this.position = position;
        }

        /** Where Spring's resilience advisors sit relative to Guard's. */
        public enum Position {
            /** Around Guard's aspects: what Spring does by itself. */
            OUTSIDE,
            /** Between Guard's aspects and the method. */
            INSIDE
        }
    }

    /** Observations of every rate-limit decision and every breaker call, when an ObservationRegistry exists. */
    public static class Observations {

        /** Whether decisions and breaker calls are observed (spans, timers) when an ObservationRegistry exists. */
        private boolean enabled = true;

        /**
         * Whether an allowed decision of limits that all lease is observed too. Off by default: such a decision is
         * answered from the lease in hand in well under a microsecond, and observing it (a timer, a long-task timer,
         * a span) would cost several times the decision; refusals, shadow refusals, failure-policy answers and errors
         * of leased limits are observed either way, and every decision is counted in guard.ratelimit.requests.
         */
        private boolean allowedLeasedDecisions = false;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public boolean isAllowedLeasedDecisions() {
            return allowedLeasedDecisions;
        }

        public void setAllowedLeasedDecisions(boolean allowedLeasedDecisions) {
            this.allowedLeasedDecisions = allowedLeasedDecisions;
        }
    }

    /** The bounded buffers of recent events that the actuator shows. */
    public static class Events {

        /** How many recent events each breaker and each limiter keeps. */
        private int bufferSize = 100;

        public int getBufferSize() {
            return bufferSize;
        }

        public void setBufferSize(int bufferSize) {
            this.bufferSize = bufferSize;
        }
    }
}
