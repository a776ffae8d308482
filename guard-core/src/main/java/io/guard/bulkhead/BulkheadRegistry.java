package io.guard.bulkhead;

import io.guard.time.GuardClock;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The named bulkheads of an application: each gets its instance limit if one is configured, else the default.
 * Bounded in number like the breaker registry, so names derived from request data cannot grow memory.
 */
public final class BulkheadRegistry {

    private final int defaultMaxConcurrentCalls;
    private final Map<String, Integer> instances;
    private final int maxBulkheads;
    private final GuardClock clock;
    private final int eventBufferSize;
    private final Map<String, Bulkhead> bulkheads = new ConcurrentHashMap<>();
    private final java.util.List<Consumer<Bulkhead>> listeners = new CopyOnWriteArrayList<>();

    /**
     * @param defaultMaxConcurrentCalls limit of bulkheads without an instance entry
     * @param instances                 limits by name
     */
    public BulkheadRegistry(int defaultMaxConcurrentCalls, Map<String, Integer> instances, int maxBulkheads,
                            GuardClock clock, int eventBufferSize) {
        if (defaultMaxConcurrentCalls < 1) {
            throw new IllegalArgumentException("bulkhead default max-concurrent-calls must be at least 1 but was "
                    + defaultMaxConcurrentCalls);
        }
        instances.forEach((name, max) -> {
            if (max == null || max < 1) {
                throw new IllegalArgumentException("bulkhead '" + name
                        + "': max-concurrent-calls must be at least 1 but was " + max);
            }
        });
        this.defaultMaxConcurrentCalls = defaultMaxConcurrentCalls;
        this.instances = Map.copyOf(instances);
        this.maxBulkheads = maxBulkheads;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.eventBufferSize = eventBufferSize;
    }

    /** The bulkhead named {@code name}, created with its configured limit (or the default). */
    public Bulkhead bulkhead(String name) {
        return bulkhead(name, instances.getOrDefault(name, defaultMaxConcurrentCalls));
    }

    /** The bulkhead named {@code name}, created with {@code maxConcurrentCalls} if absent (an instance entry wins). */
    public Bulkhead bulkhead(String name, int maxConcurrentCalls) {
        return getOrCreate(name, () -> new Bulkhead(name, instances.getOrDefault(name, maxConcurrentCalls), clock,
                eventBufferSize));
    }

    /**
     * The bulkhead named {@code name}, created with the limit {@code limit} makes if absent (an adaptive one, say).
     *
     * @param retryAfter the {@code Retry-After} hint of its refusals; null for none
     */
    public Bulkhead bulkhead(String name, Supplier<ConcurrencyLimit> limit, Duration retryAfter) {
        return getOrCreate(name, () -> new Bulkhead(name, limit.get(), retryAfter, clock, eventBufferSize));
    }

    private Bulkhead getOrCreate(String name, Supplier<Bulkhead> create) {
        Bulkhead existing = bulkheads.get(name);
        if (existing != null) {
            return existing;
        }
        synchronized (bulkheads) {
            existing = bulkheads.get(name);
            if (existing != null) {
                return existing;
            }
            if (bulkheads.size() >= maxBulkheads) {
                throw new IllegalStateException("Cannot create bulkhead '" + name + "': the registry holds "
                        + bulkheads.size() + " bulkheads, its bound max-bulkheads=" + maxBulkheads);
            }
            Bulkhead created = create.get();
            bulkheads.put(name, created);
            listeners.forEach(l -> l.accept(created));
            return created;
        }
    }

    public Optional<Bulkhead> find(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(bulkheads.get(name));
    }

    public Collection<Bulkhead> all() {
        return Collections.unmodifiableCollection(bulkheads.values());
    }

    /** Calls {@code onCreated} for every bulkhead that exists and each one created later, once each. */
    public void addRegistryListener(Consumer<Bulkhead> onCreated) {
        synchronized (bulkheads) {
            listeners.add(onCreated);
            bulkheads.values().forEach(onCreated);
        }
    }
}
