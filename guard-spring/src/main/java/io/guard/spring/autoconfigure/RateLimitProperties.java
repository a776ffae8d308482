package io.guard.spring.autoconfigure;

import io.guard.spring.ratelimit.LimitSettings;
import io.guard.spring.ratelimit.LimitTiers;
import io.guard.spring.ratelimit.MissingKeyPolicy;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.core.Ordered;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code guard.rate-limit.*}: the backend, key handling, defaults and per-limit settings, the aspect's order. */
public class RateLimitProperties {

    /**
     * Where limits are counted: auto (Redis when a RedissonClient or RedisConnectionFactory bean exists, else in
     * process), redis or local.
     */
    private Backend backend = Backend.AUTO;

    /** How Guard talks to Redis. */
    @NestedConfigurationProperty
    private RateLimitRedisProperties redis = new RateLimitRedisProperties();

    /** Prefix of every Redis key Guard writes. */
    private String keyPrefix = "guard:";

    /** What a limit does when its key expression yields null or empty: reject (HTTP 400) or shared (one key). */
    private MissingKeyPolicy missingKey = MissingKeyPolicy.REJECT;

    /** Settings that fill what neither the annotation nor the instance's properties set. */
    @NestedConfigurationProperty
    private LimitProperties defaults = new LimitProperties();

    /** Settings per limit name; they override the annotation's attributes. */
    private Map<String, LimitInstanceProperties> instances = new LinkedHashMap<>();

    /**
     * How often each instance re-reads the limits' run-time overrides (set through the guard actuator endpoint) in
     * case it missed the message that announced one: the longest an instance may decide under an old override.
     */
    private Duration overridePollInterval = Duration.ofSeconds(5);

    /**
     * Limits applied by URL pattern to requests no annotation reaches (static resources, third-party controllers, a
     * whole API prefix), each matching route in order, by a filter that answers like @RateLimit.
     */
    private List<RouteProperties> routes = new ArrayList<>();

    /** Order of the @RateLimit aspect; lower runs outside (before) higher. */
    private int aspectOrder = Ordered.LOWEST_PRECEDENCE - 20;

    /** Where limits are counted. */
    public enum Backend {
        /** Redis when a RedissonClient or RedisConnectionFactory bean exists, else in process (with a warning). */
        AUTO,
        /**
         * Redis: the application's RedissonClient or Spring Data RedisConnectionFactory bean, or else a lazy Redisson
         * client Guard makes from spring.data.redis.*; start-up fails with neither client on the class path.
         */
        REDIS,
        /** In process: each instance of the service has its own quota. */
        LOCAL
    }

    public Backend getBackend() {
        return backend;
    }

    public void setBackend(Backend backend) {
        this.backend = backend;
    }

    public RateLimitRedisProperties getRedis() {
        return redis;
    }

    public void setRedis(RateLimitRedisProperties redis) {
        this.redis = redis;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public MissingKeyPolicy getMissingKey() {
        return missingKey;
    }

    public void setMissingKey(MissingKeyPolicy missingKey) {
        this.missingKey = missingKey;
    }

    public LimitProperties getDefaults() {
        return defaults;
    }

    public void setDefaults(LimitProperties defaults) {
        this.defaults = defaults;
    }

    public Map<String, LimitInstanceProperties> getInstances() {
        return instances;
    }

    public void setInstances(Map<String, LimitInstanceProperties> instances) {
        this.instances = instances;
    }

    public List<RouteProperties> getRoutes() {
        return routes;
    }

    public void setRoutes(List<RouteProperties> routes) {
        this.routes = routes;
    }

    public Duration getOverridePollInterval() {
        return overridePollInterval;
    }

    public void setOverridePollInterval(Duration overridePollInterval) {
        this.overridePollInterval = overridePollInterval;
    }

    public int getAspectOrder() {
        return aspectOrder;
    }

    public void setAspectOrder(int aspectOrder) {
        this.aspectOrder = aspectOrder;
    }

    /** The settings of {@code guard.rate-limit.instances.<name>}, or none. */
    public LimitSettings instanceSettings(String name) {
        LimitProperties instance = instances.get(name);
        return instance == null ? LimitSettings.NONE : instance.toSettings();
    }

    /** The settings of {@code guard.rate-limit.defaults}: what a limit leaves unset (the gateway module reads it). */
    public LimitSettings defaultSettings() {
        return defaults.toSettings();
    }

    /** The tiers of {@code guard.rate-limit.instances.<name>}, or none. */
    public LimitTiers instanceTiers(String name) {
        LimitInstanceProperties instance = instances.get(name);
        return instance == null ? LimitTiers.NONE : instance.toTiers();
    }
}
