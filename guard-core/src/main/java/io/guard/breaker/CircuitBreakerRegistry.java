package io.guard.breaker;

import io.guard.time.CallbackTimer;
import io.guard.time.GuardClock;
import io.guard.time.Scheduler;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The named circuit breakers of an application. A breaker's configuration is its per-instance entry if there is
 * one, else the defaults. Breakers created from dynamic names are bounded in number: a name computed from
 * user input must not be able to grow memory without limit, so creating one breaker beyond
 * {@code maxBreakers} fails with an {@link IllegalStateException}.
 *
 * <p>Timeouts and timed transitions (automatic OPEN to HALF_OPEN, max-wait-duration-in-half-open-state) run on
 * the scheduler given to the builder. Without one, the registry starts a timer thread ({@code guard-breaker-timer})
 * the first time a breaker needs it; that thread only keeps time and hands each due task to a pool of at most
 * {@link Builder#callbackThreads(int) callbackThreads} daemon threads ({@code guard-breaker-callback-N}), so a
 * timeout's fallback that blocks, or whatever a caller chained on the future it completes, cannot delay another
 * breaker's timeout. Idle threads end after a minute; {@link #close()} stops them all. Breakers also apply due transitions whenever they are
 * asked for a permission or their state, so the reported state is right even if a timer is late.
 */
public final class CircuitBreakerRegistry implements AutoCloseable {

    /** Default bound on the number of breakers. */
    public static final int DEFAULT_MAX_BREAKERS = 1000;
    /** Default number of recent events each breaker keeps. */
    public static final int DEFAULT_EVENT_BUFFER_SIZE = 100;

    private final CircuitBreakerConfig defaults;
    private final Map<String, CircuitBreakerConfig> instances;
    private final int maxBreakers;
    private final GuardClock clock;
    private final int eventBufferSize;
    private final Scheduler scheduler;
    private final Map<String, CircuitBreaker> breakers = new ConcurrentHashMap<>();
    private final List<Consumer<CircuitBreaker>> listeners = new CopyOnWriteArrayList<>();
    private final Object creation = new Object();
    private final CallbackTimer ownTimer;

    private CircuitBreakerRegistry(Builder b) {
        this.defaults = b.defaults;
        this.instances = Map.copyOf(b.instances);
        this.maxBreakers = b.maxBreakers;
        this.clock = b.clock;
        this.eventBufferSize = b.eventBufferSize;
        this.ownTimer = b.scheduler != null ? null
                : new CallbackTimer("guard-breaker-timer", "guard-breaker-callback", b.callbackThreads);
        this.scheduler = b.scheduler != null ? b.scheduler : ownTimer;
    }

    /** A registry with Resilience4j's default configuration for every breaker. */
    public static CircuitBreakerRegistry ofDefaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The breaker named {@code name}, created with its instance configuration or the defaults if absent. */
    public CircuitBreaker circuitBreaker(String name) {
        CircuitBreaker existing = breakers.get(requireName(name));
        return existing != null ? existing : create(name, instances.getOrDefault(name, defaults));
    }

    /**
     * The breaker named {@code name}, created with {@code config} if absent. An existing breaker keeps the
     * configuration it was created with.
     */
    public CircuitBreaker circuitBreaker(String name, CircuitBreakerConfig config) {
        Objects.requireNonNull(config, "config");
        CircuitBreaker existing = breakers.get(requireName(name));
        return existing != null ? existing : create(name, config);
    }

    /** The breaker named {@code name} if it exists; never creates one. */
    public Optional<CircuitBreaker> find(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(breakers.get(name));
    }

    /** Every breaker created so far (a read-only view). */
    public Collection<CircuitBreaker> all() {
        return java.util.Collections.unmodifiableCollection(breakers.values());
    }

    /** The configuration a breaker named {@code name} gets when created by {@link #circuitBreaker(String)}. */
    public CircuitBreakerConfig configFor(String name) {
        return instances.getOrDefault(name, defaults);
    }

    /**
     * Calls {@code onCreated} for every breaker that already exists and then for each one created later, exactly
     * once per breaker, so a metrics binder registered late misses none. Called on the creating thread, while
     * creation is held: keep it fast.
     */
    public void addRegistryListener(Consumer<CircuitBreaker> onCreated) {
        Objects.requireNonNull(onCreated, "onCreated");
        synchronized (creation) {
            listeners.add(onCreated);
            breakers.values().forEach(onCreated);
        }
    }

    /** Stops the timer and callback threads this registry started, if any; a scheduler passed to the builder is left alone. */
    @Override
    public void close() {
        if (ownTimer != null) {
            ownTimer.close();
        }
    }

    private CircuitBreaker create(String name, CircuitBreakerConfig config) {
        synchronized (creation) {
            CircuitBreaker existing = breakers.get(name);
            if (existing != null) {
                return existing;
            }
            if (breakers.size() >= maxBreakers) {
                throw new IllegalStateException("Cannot create circuit breaker '" + name + "': the registry holds "
                        + breakers.size() + " breakers, its bound max-breakers=" + maxBreakers
                        + " (breaker names derived from request data are a common cause)");
            }
            CircuitBreaker breaker = new DefaultCircuitBreaker(name, config, clock, scheduler, eventBufferSize);
            breakers.put(name, breaker);
            listeners.forEach(l -> l.accept(breaker));
            return breaker;
        }
    }

    private static String requireName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("circuit breaker name must not be blank but was '" + name + "'");
        }
        return name;
    }

    /** Builds a {@link CircuitBreakerRegistry}. */
    public static final class Builder {
        private CircuitBreakerConfig defaults = CircuitBreakerConfig.ofDefaults();
        private Map<String, CircuitBreakerConfig> instances = Map.of();
        private int maxBreakers = DEFAULT_MAX_BREAKERS;
        private GuardClock clock = GuardClock.system();
        private int eventBufferSize = DEFAULT_EVENT_BUFFER_SIZE;
        private Scheduler scheduler;
        private int callbackThreads = CallbackTimer.DEFAULT_CALLBACK_THREADS;

        private Builder() {
        }

        /** The configuration of breakers without an instance entry. */
        public Builder defaults(CircuitBreakerConfig defaults) {
            this.defaults = Objects.requireNonNull(defaults, "defaults");
            return this;
        }

        /** Complete configurations by breaker name; they replace the defaults for those names. */
        public Builder instances(Map<String, CircuitBreakerConfig> instances) {
            Objects.requireNonNull(instances, "instances");
            instances.forEach((name, config) -> {
                requireName(name);
                Objects.requireNonNull(config, "config of circuit breaker '" + name + "'");
            });
            this.instances = instances;
            return this;
        }

        /** The most breakers this registry creates; at least 1. */
        public Builder maxBreakers(int maxBreakers) {
            if (maxBreakers < 1) {
                throw new IllegalArgumentException("max-breakers must be at least 1 but was " + maxBreakers);
            }
            this.maxBreakers = maxBreakers;
            return this;
        }

        /** The clock of every breaker: state timing, time windows, call durations and event timestamps. */
        public Builder clock(GuardClock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** How many recent events each breaker keeps; at least 1. */
        public Builder eventBufferSize(int size) {
            if (size < 1) {
                throw new IllegalArgumentException("event-buffer-size must be at least 1 but was " + size);
            }
            this.eventBufferSize = size;
            return this;
        }

        /**
         * How many timeouts and timed transitions of the registry's own timer may run at once, each on its own
         * {@code guard-breaker-callback-N} thread (16 by default); more wait their turn. A timeout's fallback that
         * blocks holds one of them. Not used when a {@link #scheduler(Scheduler) scheduler} is given.
         */
        public Builder callbackThreads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("callback-threads must be at least 1 but was " + threads);
            }
            this.callbackThreads = threads;
            return this;
        }

        /**
         * Runs timeouts and timed transitions instead of the registry's own timer; a {@link io.guard.time.ManualClock}
         * in tests. Tasks then run wherever this scheduler runs them.
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        public CircuitBreakerRegistry build() {
            return new CircuitBreakerRegistry(this);
        }
    }
}
