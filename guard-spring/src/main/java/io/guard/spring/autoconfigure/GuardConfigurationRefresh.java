package io.guard.spring.autoconfigure;

import io.guard.spring.autoconfigure.report.GuardPropertiesCheck;
import io.guard.spring.autoconfigure.report.PropertyMistakes;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.lease.LeaseSize;
import io.guard.spring.method.ConfiguredLimits;
import io.guard.spring.method.GuardAnnotationException;
import io.guard.spring.method.GuardedMethods.ResolvedLimit;
import io.guard.spring.method.GuardedMethods;
import io.guard.spring.ratelimit.GuardLeases;
import io.guard.spring.ratelimit.LimitSettings;
import io.guard.spring.ratelimit.LiveLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.IgnoreTopLevelConverterNotFoundBindHandler;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Applies a configuration refresh to the rate limits. When a changed key lies under {@code guard.rate-limit.}, the
 * whole {@code guard.rate-limit} tree is bound again from the environment, checked as at start-up and every limit is
 * resolved again with the start-up layering (instance over annotation over defaults); the limits whose rate,
 * interval, algorithm, burst or shadow mode changed get their new configuration through {@link LiveLimits}, where
 * an operator's override stays on top, and those whose lease size changed lease so from their next lease on
 * ({@link GuardLeases}; a lease in hand is spent or expires within its lifetime). All or nothing: one bad value and the configuration in force stays, with a
 * warning naming the property and the value.
 *
 * <p>Other {@code guard.rate-limit} keys (scope, keys, routes, tiers added or removed, ...) and every other
 * {@code guard.*} key (breakers and their bulkheads, the server limit, observations, ...) are read once at start-up: a
 * change to them is logged as needing a restart and not applied.
 */
final class GuardConfigurationRefresh implements ApplicationListener<EnvironmentChangeEvent>, Ordered {

    private static final Logger log = LoggerFactory.getLogger(GuardConfigurationRefresh.class);

    static final String SOURCE = "refresh";
    private static final String PREFIX = "guard.rate-limit.";
    /** What a refresh may change: as for an override, rate, interval, algorithm, burst and shadow; and the lease. */
    private static final Pattern REFRESHABLE = Pattern.compile(
            "guard\\.rate-limit\\.(defaults|instances\\.[^.]+(\\.tiers\\.[^.]+)?)\\.(rate|interval|algorithm|burst|shadow)"
                    + "|guard\\.rate-limit\\.(defaults|instances\\.[^.]+)\\.lease");

    private final ConfigurableEnvironment environment;
    private final ObjectProvider<LiveLimits> live;
    private final ObjectProvider<GuardedMethods> methods;
    private final ObjectProvider<ConfiguredLimits> configured;
    private final ObjectProvider<GuardLeases> leases;

    /** @param configured the limits declared in configuration: URL-pattern routes, gateway routes */
    GuardConfigurationRefresh(ConfigurableEnvironment environment, ObjectProvider<LiveLimits> live,
                              ObjectProvider<GuardedMethods> methods, ObjectProvider<ConfiguredLimits> configured,
                              ObjectProvider<GuardLeases> leases) {
        this.environment = environment;
        this.live = live;
        this.methods = methods;
        this.configured = configured;
        this.leases = leases;
    }

    /**
     * Before Spring Cloud's rebinding of {@code @ConfigurationProperties} beans, which fails the whole refresh on a
     * {@code guard.*} key that {@code GuardProperties} does not know: the warning naming it is logged all the same.
     */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public synchronized void onApplicationEvent(EnvironmentChangeEvent event) {
        Set<String> changed = new TreeSet<>();
        for (String key : event.getKeys()) {
            String name = canonical(key);
            if (name.startsWith("guard.")) {
                changed.add(name);
            }
        }
        changed.stream().filter(key -> !REFRESHABLE.matcher(key).matches()).forEach(key -> log.warn(
                "{}={} changed by a configuration refresh needs a restart to apply; the value of start-up stays",
                key, environment.getProperty(key, "(unset)")));
        LiveLimits limits = live.getIfAvailable();
        if (limits == null) {
            return;
        }
        if (changed.stream().noneMatch(key -> REFRESHABLE.matcher(key).matches())) {
            return;
        }
        apply(limits);
    }

    private void apply(LiveLimits limits) {
        RateLimitProperties fresh = bind();
        if (fresh == null || !valid(fresh)) {
            return;
        }
        LimitSettings defaults = fresh.getDefaults().toSettings();
        List<ResolvedLimit> resolved = new ArrayList<>();
        Map<String, Boolean> startupShadows = new HashMap<>();
        try {
            GuardedMethods guarded = methods.getIfAvailable();
            if (guarded != null) {
                resolved.addAll(guarded.resolveAgain(fresh::instanceSettings, fresh::instanceTiers, defaults));
                startupShadows.putAll(guarded.startupShadows());
            }
            for (ConfiguredLimits limitsOf : configured.orderedStream().toList()) {
                resolved.addAll(limitsOf.resolveAgain(fresh::instanceSettings, defaults));
                limitsOf.startupShadows().forEach(startupShadows::putIfAbsent);
            }
        } catch (GuardAnnotationException e) {
            log.warn("Ignoring the refreshed guard.rate-limit configuration, the limits in force stay: {}",
                    e.getMessage());
            return;
        }
        Map<String, ResolvedLimit> changes = new LinkedHashMap<>();
        Map<String, LeaseSize> leaseChanges = new LinkedHashMap<>();
        GuardLeases leasing = leases.getIfAvailable();
        Set<String> known = limits.configuredNames();
        for (ResolvedLimit limit : resolved) {
            String name = limit.policy().name();
            RateLimitPolicy old = limits.configuredPolicy(name).orElse(null);
            if (old == null) {
                log.warn("Rate limit '{}' ({}) added by a configuration refresh needs a restart to apply", name,
                        limit.site());
                continue;
            }
            RateLimitPolicy policy;
            try {
                // scope, time source, backend-failure policy and replica wait are read at start-up only
                policy = new RateLimitPolicy(name, limit.policy().algorithm(), limit.policy().rate(),
                        limit.policy().interval(), limit.policy().burst(), old.scope(), old.timeSource(),
                        old.onBackendFailure(), old.replicaWait());
            } catch (IllegalArgumentException e) {
                log.warn("Ignoring the refreshed guard.rate-limit configuration, the limits in force stay: rate "
                        + "limit '{}' would be invalid: {}", name, e.getMessage());
                return;
            }
            boolean shadowBefore = limits.reconfiguredOf(name).map(LiveLimits.Reconfigured::shadow)
                    .orElse(startupShadows.getOrDefault(name, false));
            if (!policy.equals(old) || limit.shadow() != shadowBefore) {
                changes.put(name, new ResolvedLimit(policy, limit.shadow(), limit.site(), limit.lease()));
            }
            if (leasing != null && !leasing.sizeOf(name).equals(limit.lease())) {
                leaseChanges.put(name, limit.lease());
            }
        }
        Set<String> seen = new TreeSet<>();
        resolved.forEach(limit -> seen.add(limit.policy().name()));
        known.stream().filter(name -> !seen.contains(name)).sorted().forEach(name -> log.warn(
                "Rate limit '{}' is no longer in the refreshed configuration; removing it needs a restart", name));
        changes.values().forEach(limit -> limits.reconfigure(limit.policy(), limit.shadow(), SOURCE));
        leaseChanges.forEach((name, size) -> {
            if (leasing.resize(name, size)) {
                log.info("Rate limit '{}' leases {} after a configuration refresh", name, size);
            } else {
                log.warn("Rate limit '{}' stays exact: lease {} set by a configuration refresh needs the Redis "
                        + "backend", name, size);
            }
        });
    }

    /** {@code guard.rate-limit} as the environment has it now, or null (logged) when it does not bind. */
    private RateLimitProperties bind() {
        try {
            return Binder.get(environment).bind("guard.rate-limit", Bindable.of(RateLimitProperties.class),
                            new NoUnboundElementsBindHandler(new IgnoreTopLevelConverterNotFoundBindHandler()))
                    .orElseGet(RateLimitProperties::new);
        } catch (BindException e) {
            String property = e.getProperty() != null
                    ? e.getProperty().getName() + "=" + e.getProperty().getValue() : e.getName().toString();
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            log.warn("Ignoring the refreshed guard.rate-limit configuration, the limits in force stay: {}: {}",
                    property, cause.getMessage());
            return null;
        }
    }

    /** The start-up checks of {@link PropertyMistakes}, logged instead of stopping anything. */
    private boolean valid(RateLimitProperties fresh) {
        GuardProperties properties = new GuardProperties();
        properties.setRateLimit(fresh);
        List<String> mistakes = GuardPropertiesCheck.describe(PropertyMistakes.in(properties), environment);
        if (mistakes.isEmpty()) {
            return true;
        }
        log.warn("Ignoring the refreshed guard.rate-limit configuration, the limits in force stay: {}",
                String.join("; ", mistakes));
        return false;
    }

    /** {@code guard.rate-limit.instances.x.rate} whether written so, in camel case or as an environment variable. */
    private static String canonical(String key) {
        if (ConfigurationPropertyName.isValid(key)) {
            return key;
        }
        ConfigurationPropertyName adapted = ConfigurationPropertyName.adapt(key, '.');
        if (adapted.isEmpty() && key.indexOf('_') >= 0) {
            adapted = ConfigurationPropertyName.adapt(key, '_');
        }
        return adapted.toString();
    }
}
