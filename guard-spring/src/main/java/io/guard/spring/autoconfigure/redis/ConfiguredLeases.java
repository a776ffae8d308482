package io.guard.spring.autoconfigure.redis;

import io.guard.ratelimit.lease.LeaseSize;
import io.guard.spring.autoconfigure.GuardProperties;
import io.guard.spring.autoconfigure.LimitProperties;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The lease size of each limit by name, from {@code guard.rate-limit.instances.<name>.lease} and
 * {@code guard.rate-limit.defaults.lease}, read once at start-up (the values were checked with every other property);
 * a tier ({@code <name>.<tier>}) leases as its limit does. What a limit no annotation declares leases with (routes,
 * gateway routes); an annotated limit's size is resolved with its annotation ({@code GuardLeases}).
 */
final class ConfiguredLeases implements Function<String, LeaseSize> {

    private final Map<String, LeaseSize> byName = new HashMap<>();
    private final LeaseSize defaults;

    private ConfiguredLeases(GuardProperties properties) {
        this.defaults = size(properties.getRateLimit().getDefaults());
        properties.getRateLimit().getInstances().forEach((name, instance) -> {
            if (instance.getLease() != null && !instance.getLease().isBlank()) {
                byName.put(name, size(instance));
            }
        });
    }

    /** The sizes, or {@code null} when no limit leases. */
    static ConfiguredLeases of(GuardProperties properties) {
        ConfiguredLeases leases = new ConfiguredLeases(properties);
        return leases.defaults.off() && leases.byName.values().stream().allMatch(LeaseSize::off) ? null : leases;
    }

    private static LeaseSize size(LimitProperties limit) {
        return limit.getLease() == null ? LeaseSize.OFF : LeaseSize.parse(limit.getLease());
    }

    @Override
    public LeaseSize apply(String name) {
        LeaseSize size = byName.get(name);
        if (size == null) {
            int tier = name.lastIndexOf('.');
            size = tier > 0 ? byName.get(name.substring(0, tier)) : null;
        }
        return size != null ? size : defaults;
    }
}
