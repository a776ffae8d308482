package io.guard.spring.ratelimit;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.LimitOverrideStore;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.time.BoundedWait;
import io.guard.time.RepeatingTask;
import io.guard.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The limits as they are now: the configured policies with the operators' overrides on top. An override is kept in a
 * {@link LimitOverrideStore} (Redis: shared by every instance on it) and applied by registering the changed policy
 * with the {@link RateLimiterRegistry}; since the policy travels with every call, the next call is decided under it
 * and the permits already in use still count (the Redis keys stay the same unless the algorithm changes).
 *
 * <p>Other instances learn of a change from the store's message at once, and from a re-read every
 * {@code pollInterval} in case a message was missed: the bound on how long an instance may decide under an old
 * policy.
 */
public final class LiveLimits implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LiveLimits.class);

    private final RateLimiterRegistry registry;
    private final LimitOverrideStore store;
    private final Clock clock;
    private final Duration pollInterval;
    private final Duration storeTimeout;
    private final Map<String, RateLimitPolicy> configured = new ConcurrentHashMap<>();
    private final Map<String, LimitOverride> overrides = new ConcurrentHashMap<>();
    private final Map<String, Reconfigured> reconfigured = new ConcurrentHashMap<>();
    private final Object refreshLock = new Object();
    private final Scheduler timer;
    private final RepeatingTask polls;
    /** Touched by one re-read at a time (each schedules the next when it ends). */
    private volatile boolean listening;

    /**
     * @param pollInterval how often every override is re-read from the store, in case a message was missed
     * @param storeTimeout how long an actuator request waits for the store
     * @param timer        runs the re-reads (Guard's one timer in an application); stays the caller's to close
     */
    public LiveLimits(RateLimiterRegistry registry, LimitOverrideStore store, Clock clock, Duration pollInterval,
                      Duration storeTimeout, Scheduler timer) {
        this.timer = Objects.requireNonNull(timer, "timer");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (pollInterval.isNegative() || pollInterval.isZero()) {
            throw new IllegalArgumentException("override poll interval must be positive but was " + pollInterval);
        }
        this.pollInterval = pollInterval;
        this.storeTimeout = storeTimeout;
        this.polls = new RepeatingTask(timer, pollInterval, this::listenAndRefresh);
    }

    /** A policy as configuration resolves it; registered with the override the store holds for it, if any. */
    public void configure(RateLimitPolicy policy) {
        configured.put(policy.name(), policy);
        registry.register(effective(policy, overrides.get(policy.name())));
    }

    /**
     * A policy and shadow mode as a configuration refresh resolved them: they become the configured ones, and the
     * override the store holds for the limit, if any, stays on top. The next call is decided under it; the permits in
     * use still count.
     *
     * @param source where the change came from ({@code refresh})
     */
    public void reconfigure(RateLimitPolicy policy, boolean shadow, String source) {
        synchronized (refreshLock) {
            configured.put(policy.name(), policy);
            reconfigured.put(policy.name(), new Reconfigured(shadow, source, clock.instant()));
            registry.register(effective(policy, overrides.get(policy.name())));
        }
        log.info("Rate limit '{}' reconfigured by {}: now {}{}", policy.name(), source, policy,
                shadow ? " (shadow mode)" : "");
    }

    /** The names of every limit (and tier) configured so far. */
    public Set<String> configuredNames() {
        return Set.copyOf(configured.keySet());
    }

    /** The last {@link #reconfigure} of {@code name}, if any: its shadow mode, source and time. */
    public Optional<Reconfigured> reconfiguredOf(String name) {
        return Optional.ofNullable(reconfigured.get(name));
    }

    /**
     * A limit's configuration as a refresh changed it.
     *
     * @param shadow whether the limit only records
     * @param source where the change came from ({@code refresh})
     * @param at     when it was applied
     */
    public record Reconfigured(boolean shadow, String source, java.time.Instant at) {
    }

    /**
     * Starts the periodic re-read, whose first run (at once, on the timer's callback thread) also subscribes to the
     * store's messages: start-up itself asks nothing of Redis, which may not be up yet.
     */
    void start() {
        polls.start();
    }

    /**
     * Sets the override of the policy named {@code name} for every instance sharing the store.
     *
     * @return the policy now in force
     * @throws IllegalArgumentException naming the value when the result is no valid policy, or no limit has that name
     */
    public RateLimitPolicy override(String name, Long rate, Duration interval, Algorithm algorithm,
                                    Boolean shadow, String source) {
        RateLimitPolicy base = require(name);
        if (rate == null && interval == null && algorithm == null && shadow == null) {
            throw new IllegalArgumentException("an override of '" + name
                    + "' needs at least one of rate, interval, algorithm, shadow");
        }
        LimitOverride override = new LimitOverride(rate, interval, algorithm, shadow, source, clock.instant());
        RateLimitPolicy policy = override.applyTo(base);
        join(store.put(name, override.encode()));
        overrides.put(name, override);
        registry.register(policy);
        log.info("Rate limit '{}' overridden by {}: now {}", name, source, policy);
        return policy;
    }

    /** Removes the override of {@code name} everywhere: configuration applies again. */
    public RateLimitPolicy removeOverride(String name) {
        RateLimitPolicy base = require(name);
        join(store.remove(name));
        overrides.remove(name);
        registry.register(base);
        log.info("Rate limit '{}': override removed, configuration applies again: {}", name, base);
        return base;
    }

    /** The override in force for {@code name}, if any. */
    public Optional<LimitOverride> overrideOf(String name) {
        return Optional.ofNullable(overrides.get(name));
    }

    /** The configured policy of {@code name}, before any override. */
    public Optional<RateLimitPolicy> configuredPolicy(String name) {
        return Optional.ofNullable(configured.get(name));
    }

    /** Whether the policy named {@code name} runs in shadow mode: its override's say, else {@code configured}. */
    public boolean shadow(String name, boolean configuredShadow) {
        if (overrides.isEmpty() && reconfigured.isEmpty()) {
            return configuredShadow;
        }
        LimitOverride override = overrides.get(name);
        if (override != null && override.shadow() != null) {
            return override.shadow();
        }
        Reconfigured refreshed = reconfigured.get(name);
        return refreshed == null ? configuredShadow : refreshed.shadow();
    }

    /** Whether overrides reach the other instances (Redis) or stay on this one (in process). */
    public boolean shared() {
        return store.shared();
    }

    Duration pollInterval() {
        return pollInterval;
    }

    /** Re-reads every override from the store and applies it; an unreadable or invalid one is logged and skipped. */
    public void refresh() {
        Map<String, String> stored = join(store.readAll());
        synchronized (refreshLock) {
            for (RateLimitPolicy base : configured.values()) {
                String text = stored.get(base.name());
                LimitOverride override = null;
                RateLimitPolicy policy = base;
                if (text != null) {
                    try {
                        LimitOverride decoded = LimitOverride.decode(text);
                        policy = decoded.applyTo(base);
                        override = decoded;
                    } catch (IllegalArgumentException e) {
                        log.warn("Ignoring the stored override of rate limit '{}': {}", base.name(), e.getMessage());
                    }
                }
                LimitOverride previous = override == null ? overrides.remove(base.name())
                        : overrides.put(base.name(), override);
                if (!Objects.equals(previous, override) || !registry.find(base.name()).orElse(base).equals(policy)) {
                    registry.register(policy);
                }
            }
        }
    }

    @Override
    public void close() {
        polls.close();
    }

    private void listenAndRefresh() {
        if (!listening) {
            try {
                // The store calls back on its client's I/O thread (Lettuce's event loop), where a re-read waiting for
                // Redis would hold every connection of that thread, the limits' own included, until the store timeout
                // (issue 32 item 1): the re-read runs on the timer's callback thread instead.
                store.listen(() -> timer.schedule(Duration.ZERO, this::refreshQuietly));
                listening = true;
            } catch (RuntimeException e) {
                log.debug("Could not subscribe to rate-limit override messages yet ({}); re-reading every {}",
                        e.toString(), pollInterval);
            }
        }
        refreshQuietly();
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            log.debug("Could not re-read rate-limit overrides ({}); keeping the ones in force", e.toString());
        }
    }

    private static RateLimitPolicy effective(RateLimitPolicy base, LimitOverride override) {
        if (override == null) {
            return base;
        }
        try {
            return override.applyTo(base);
        } catch (IllegalArgumentException e) {
            return base;
        }
    }

    private RateLimitPolicy require(String name) {
        RateLimitPolicy base = name == null ? null : configured.get(name);
        if (base == null) {
            throw new IllegalArgumentException("no rate limit named '" + name + "'; limits: "
                    + configured.keySet().stream().sorted().toList());
        }
        return base;
    }

    private <T> T join(CompletionStage<T> stage) {
        return BoundedWait.join(stage, storeTimeout, "override store");
    }
}
