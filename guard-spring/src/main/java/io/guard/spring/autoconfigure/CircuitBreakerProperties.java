package io.guard.spring.autoconfigure;

import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.core.Ordered;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code guard.circuit-breaker.*}: defaults for every breaker, settings per breaker, and the aspect's order. */
public class CircuitBreakerProperties {

    /** Settings every breaker starts from; Resilience4j's defaults where unset. */
    @NestedConfigurationProperty
    private BreakerProperties defaults = new BreakerProperties();

    /** Settings per breaker name, over the defaults. */
    private Map<String, BreakerProperties> instances = new LinkedHashMap<>();

    /** The most breakers the registry creates; guards against breakers created from unbounded names. */
    private int maxBreakers = 1000;

    /** Order of the @CircuitBreaker aspect; lower runs outside (before) higher. */
    private int aspectOrder = Ordered.LOWEST_PRECEDENCE - 10;

    /** Breaker states set on every instance at once through Redis (see docs/fleet-control.md). */
    private final Fleet fleet = new Fleet();

    public BreakerProperties getDefaults() {
        return defaults;
    }

    public void setDefaults(BreakerProperties defaults) {
        this.defaults = defaults;
    }

    public Map<String, BreakerProperties> getInstances() {
        return instances;
    }

    public void setInstances(Map<String, BreakerProperties> instances) {
        this.instances = instances;
    }

    public int getMaxBreakers() {
        return maxBreakers;
    }

    public void setMaxBreakers(int maxBreakers) {
        this.maxBreakers = maxBreakers;
    }

    public int getAspectOrder() {
        return aspectOrder;
    }

    public void setAspectOrder(int aspectOrder) {
        this.aspectOrder = aspectOrder;
    }

    /** Whether the breaker of this name shares its openings with the fleet (instance, then defaults). */
    public boolean shareOpen(String name) {
        BreakerProperties instance = instances.get(name);
        if (instance != null && instance.getShareOpen() != null) {
            return instance.getShareOpen();
        }
        return Boolean.TRUE.equals(defaults.getShareOpen());
    }

    public Fleet getFleet() {
        return fleet;
    }

    /** Whether an OPEN breaker of this name should make its health indicator fail (instance, then defaults). */
    public boolean healthFailsWhenOpen(String name) {
        BreakerProperties instance = instances.get(name);
        if (instance != null && instance.getHealthFailsWhenOpen() != null) {
            return instance.getHealthFailsWhenOpen();
        }
        return Boolean.TRUE.equals(defaults.getHealthFailsWhenOpen());
    }

    /** {@code guard.circuit-breaker.fleet.*}: fleet-wide breaker control through the Redis backend. */
    public static class Fleet {

        /** Whether this instance takes fleet-wide breaker commands (and the actuator may send them). */
        private boolean enabled;

        /** How often each instance re-reads the fleet-wide commands, in case it missed the message of one. */
        private Duration pollInterval = Duration.ofSeconds(5);

        /** This instance's name in the commands it sends; application-name@HOSTNAME:pid when unset. */
        private String instanceId;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getPollInterval() {
            return pollInterval;
        }

        public void setPollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
        }

        public String getInstanceId() {
            return instanceId;
        }

        public void setInstanceId(String instanceId) {
            this.instanceId = instanceId;
        }
    }
}
