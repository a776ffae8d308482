package io.guard.spring.breaker;

import io.guard.breaker.BreakerStateStore;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
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
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Breaker states set for every instance at once. Each breaker still decides on this instance alone; an operator's
 * {@link FleetCommand} is kept in a {@link BreakerStateStore} (Redis: the breaker's last command) and sent to every
 * instance, which applies it to its breaker of that name, now or when the breaker is created.
 *
 * <p>An instance learns of a command from the store's message at once, and from a re-read every {@code pollInterval}
 * in case a message was missed. A message is only a cue: what is applied is what the store holds, so a malformed or
 * forged message changes nothing. An instance that starts applies the kept states (FORCED_OPEN, DISABLED) with its
 * first read, in the background; a CLOSED or RESET it finds is history and is not replayed. While the store cannot be
 * reached, every breaker goes on deciding alone and keeps the last command it applied. Each poll also reports this
 * instance's states for the {@link FleetView}.
 */
public final class FleetBreakers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FleetBreakers.class);

    private final CircuitBreakerRegistry registry;
    private final BreakerStateStore store;
    private final String instanceId;
    private final Clock clock;
    private final Duration pollInterval;
    private final Duration storeTimeout;
    private final Scheduler timer;
    private final FleetView view;
    private final SharedOpenings sharing;
    /** The last command applied (or, for a past CLOSED or RESET, seen) per breaker name. */
    private final Map<String, FleetCommand> applied = new ConcurrentHashMap<>();
    /** The stored values refused so far, by breaker name, so that each is logged once and not on every re-read. */
    private final Map<String, String> refused = new ConcurrentHashMap<>();
    /** Held from a read of the store until what it read is applied, so that an older read never undoes a newer. */
    private final Object applyLock = new Object();
    private boolean read; // guarded by applyLock: whether a read of the store succeeded once
    private final RepeatingTask polls;
    private volatile boolean listening;

    /**
     * @param instanceId   this instance's name in the commands it sends and in the actuator
     * @param pollInterval how often the store is re-read, in case a message was missed
     * @param storeTimeout how long a command waits for the store
     * @param timer        runs the re-reads (Guard's one timer in an application); stays the caller's to close
     */
    public FleetBreakers(CircuitBreakerRegistry registry, BreakerStateStore store, String instanceId, Clock clock,
                         Duration pollInterval, Duration storeTimeout, Scheduler timer) {
        this(registry, store, instanceId, clock, pollInterval, storeTimeout, timer, name -> false);
    }

    /** @param sharesOpen which breakers share their openings with the fleet ({@code share-open}), by name */
    public FleetBreakers(CircuitBreakerRegistry registry, BreakerStateStore store, String instanceId, Clock clock,
                         Duration pollInterval, Duration storeTimeout, Scheduler timer, Predicate<String> sharesOpen) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.store = Objects.requireNonNull(store, "store");
        this.instanceId = Objects.requireNonNull(instanceId, "instanceId");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (pollInterval.isNegative() || pollInterval.isZero()) {
            throw new IllegalArgumentException("fleet poll interval must be positive but was " + pollInterval);
        }
        this.pollInterval = pollInterval;
        this.storeTimeout = Objects.requireNonNull(storeTimeout, "storeTimeout");
        this.timer = Objects.requireNonNull(timer, "timer");
        this.view = new FleetView(registry, store, instanceId, clock, pollInterval, storeTimeout);
        this.sharing = new SharedOpenings(sharesOpen, timer, this::shareOpening);
        this.polls = new RepeatingTask(timer, pollInterval, this::poll);
    }

    /**
     * Applies kept states to breakers created from now on, and starts the periodic re-read, whose first run (at once,
     * on the timer's callback thread) also subscribes to the store's messages: start-up itself asks nothing of the
     * store, which may not be up yet.
     */
    public void start() {
        registry.addRegistryListener(this::created);
        polls.start();
    }

    /**
     * Puts the breaker {@code breaker} in {@code state} on every instance sharing the store, this one at once.
     *
     * @param by who asked, for the logs of every instance and the actuator
     * @throws IllegalStateException when the store did not take the command (nothing is applied then)
     */
    public FleetCommand command(String breaker, FleetState state, String by) {
        if (!state.byOperator()) {
            throw new IllegalArgumentException("state " + state + " is not one an operator sends: " + FleetState.ACCEPTED);
        }
        FleetCommand command = new FleetCommand(breaker, state, by, instanceId, clock.instant());
        send(command);
        log.info("Circuit breaker '{}' set to {} on every instance by {} (sent from {})", breaker, state, by,
                instanceId);
        timer.schedule(Duration.ZERO, view::refreshQuietly);
        return command;
    }

    private void send(FleetCommand command) {
        join(store.put(command.breaker(), command.encode()));
        synchronized (applyLock) {
            // a re-read may have applied it already; a shared opening happened here first
            if (!command.equals(applied.put(command.breaker(), command)) && command.state() != FleetState.OPEN) {
                registry.find(command.breaker()).ifPresent(command.state()::applyTo);
            }
        }
    }

    /** share-open: this instance's breaker opened by itself; every instance opens it for the same wait. */
    private void shareOpening(String breaker, Duration wait) {
        try {
            send(new FleetCommand(breaker, FleetState.OPEN, "share-open", instanceId, clock.instant(), wait));
            log.info("Circuit breaker '{}' opened on this instance: opening it on every instance for {} (share-open)",
                    breaker, wait);
        } catch (RuntimeException e) {
            log.warn("Circuit breaker '{}' opened on this instance, but the other instances could not be told ({})",
                    breaker, e.getMessage());
        }
    }

    /** The last fleet-wide command this instance applied to {@code breaker}, if any. */
    public Optional<FleetCommand> commandOf(String breaker) {
        return Optional.ofNullable(applied.get(breaker));
    }

    /** Which instance is in which state, as this instance last read it. */
    public FleetView view() {
        return view;
    }

    /** This instance's name in the commands it sends. */
    public String instanceId() {
        return instanceId;
    }

    /** Re-reads every breaker's last command and applies those this instance has not applied yet. */
    public void refresh() {
        synchronized (applyLock) {
            Map<String, String> stored = join(store.readAll());
            boolean first = !read;
            read = true;
            stored.forEach((name, text) -> {
                FleetCommand command = decoded(name, text);
                if (command == null || command.equals(applied.get(name))) {
                    return;
                }
                applied.put(name, command);
                if (first && !command.state().kept()) {
                    return; // a CLOSED or RESET sent before this instance read the store: nothing to undo here
                }
                registry.find(name).filter(breaker -> apply(breaker, command)).ifPresent(breaker ->
                    log.info("Circuit breaker '{}' set to {} by a fleet-wide command of {} (sent from {} at {})",
                            name, command.state(), command.by(), command.from(), command.at()));
            });
        }
    }

    @Override
    public void close() {
        polls.close();
    }

    private boolean apply(CircuitBreaker breaker, FleetCommand command) {
        if (command.state() == FleetState.OPEN) {
            return sharing.apply(breaker, command, clock.instant());
        }
        command.state().applyTo(breaker);
        return true;
    }

    /** A breaker created after the command reached this instance starts in the kept state. */
    private void created(CircuitBreaker breaker) {
        sharing.watch(breaker);
        FleetCommand command = applied.get(breaker.name());
        if (command != null && command.state().kept()) {
            command.state().applyTo(breaker);
        }
    }

    private FleetCommand decoded(String name, String text) {
        try {
            FleetCommand command = FleetCommand.decode(text);
            if (!command.breaker().equals(name)) {
                throw new IllegalArgumentException("it names breaker '" + command.breaker() + "'");
            }
            refused.remove(name);
            return command;
        } catch (IllegalArgumentException e) {
            if (!text.equals(refused.put(name, text))) {
                log.warn("Ignoring the stored fleet-wide command of circuit breaker '{}': {}", name, e.getMessage());
            }
            return null;
        }
    }

    /**
     * A message is a cue to re-read, handed to the timer's callback thread: it arrives on the store client's I/O
     * thread, where a read waiting for the store would hold that thread's connections. A malformed one is dropped.
     */
    private void message(String text) {
        try {
            FleetCommand.decode(text);
        } catch (IllegalArgumentException e) {
            log.warn("Dropped a malformed fleet-wide breaker command: {}", e.getMessage());
            return;
        }
        timer.schedule(Duration.ZERO, this::refreshQuietly);
    }

    /** One re-read (subscribing first if need be) and this instance's report to the fleet view. */
    private void poll() {
        listen();
        refreshQuietly();
        view.refreshQuietly();
    }

    private void listen() {
        if (listening) {
            return;
        }
        try {
            store.listen(this::message, () -> timer.schedule(Duration.ZERO, this::refreshQuietly));
            listening = true;
        } catch (RuntimeException e) {
            log.debug("Could not subscribe to fleet-wide breaker commands yet ({}); re-reading every {}",
                    e.toString(), pollInterval);
        }
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            log.debug("Could not re-read fleet-wide breaker commands ({}); keeping the ones applied", e.toString());
        }
    }

    private <T> T join(CompletionStage<T> stage) {
        return BoundedWait.join(stage, storeTimeout, "breaker state store");
    }
}
