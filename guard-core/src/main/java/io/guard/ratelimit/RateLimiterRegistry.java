package io.guard.ratelimit;

import io.guard.event.EventBuffer;
import io.guard.event.GuardEvent;
import io.guard.event.GuardEventListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The named limits of an application and the one backend that decides them: what {@code @RateLimit}, the actuator
 * and the metrics binder talk to. Each request is decided by the backend with the policy registered under its
 * name, counted once (permitted, rejected or error), reported to observers, and, when refused or when the backend
 * failed, published as an event. Events name the limiter, never the resolved key, which may be personal data.
 *
 * <p>With a {@link FailoverRateLimiter} as backend, a request that the failure policy answered (allowed by
 * {@code FAIL_OPEN}, decided by {@code LOCAL}) counts as an error, not as a permit: the dashboards must show an
 * outage even when callers do not notice it.
 */
public final class RateLimiterRegistry implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RateLimiterRegistry.class);

    private final RateLimiter backend;
    private final Clock clock;
    private final int eventBufferSize;
    private final LongSupplier nanoTime;
    private final Map<String, Limit> limits = new ConcurrentHashMap<>();
    private final List<GuardEventListener> listeners = new CopyOnWriteArrayList<>();
    private final List<RateLimitObserver> observers = new CopyOnWriteArrayList<>();
    private final Object timerLock = new Object();
    private ScheduledExecutorService timer;
    private volatile BackendHealth lastSeen;

    /**
     * @param backend         decides every request; not closed by {@link #close()}
     * @param clock           timestamps events
     * @param eventBufferSize recent events kept per limiter; at least 1
     */
    public RateLimiterRegistry(RateLimiter backend, Clock clock, int eventBufferSize) {
        this(backend, clock, eventBufferSize, System::nanoTime);
    }

    RateLimiterRegistry(RateLimiter backend, Clock clock, int eventBufferSize, LongSupplier nanoTime) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (eventBufferSize < 1) {
            throw new IllegalArgumentException("event buffer size must be at least 1 but was " + eventBufferSize);
        }
        this.eventBufferSize = eventBufferSize;
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.lastSeen = BackendHealth.up(backend.backendName());
    }

    /** Registers {@code policy} under its name, replacing a policy of that name (its counters and events stay). */
    public RateLimitPolicy register(RateLimitPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        limits.compute(policy.name(), (name, existing) -> existing == null
                ? new Limit(policy, new EventBuffer(eventBufferSize)) : existing.withPolicy(policy));
        return policy;
    }

    /**
     * The limit registered under {@code name}, or {@code null}: what a caller that decides many times per call
     * (Guard's aspect) holds, so the name is looked up once per call rather than once per step. Its
     * {@link Limit#policy()} is the policy in force, replaced in place when the limit is registered again.
     */
    public Limit limit(String name) {
        return name == null ? null : limits.get(name);
    }

    public Optional<RateLimitPolicy> find(String name) {
        Limit limit = name == null ? null : limits.get(name);
        return Optional.ofNullable(limit).map(Limit::policy);
    }

    /** The registered policies (a snapshot). */
    public Collection<RateLimitPolicy> policies() {
        return limits.values().stream().map(Limit::policy).toList();
    }

    /**
     * Takes {@code permits} for {@code key} under the policy named {@code name} if available now.
     *
     * @throws IllegalArgumentException if no policy has that name or {@code permits} is out of range
     * @throws RateLimiterBackendException if the backend failed and the policy says {@code FAIL_CLOSED}
     */
    public Decision tryAcquire(String name, String key, long permits) {
        return tryAcquire(require(name), key, permits);
    }

    /** {@link #tryAcquire} without blocking; a backend failure under {@code FAIL_CLOSED} fails the stage. */
    public CompletionStage<Decision> tryAcquireAsync(String name, String key, long permits) {
        return tryAcquireAsync(require(name), key, permits);
    }

    /** {@link #tryAcquire(String, String, long)} for a limit already looked up. */
    public Decision tryAcquire(Limit limit, String key, long permits) {
        try {
            return tryAcquireAsync(limit, key, permits).toCompletableFuture().join();
        } catch (CompletionException e) {
            throw Failures.rethrowable(e);
        }
    }

    /** {@link #tryAcquireAsync(String, String, long)} for a limit already looked up. */
    public CompletionStage<Decision> tryAcquireAsync(Limit limit, String key, long permits) {
        limit.policy().checkPermits(permits);
        return attempt(limit, key, permits);
    }

    /**
     * Decides several limits of one call all-or-nothing ({@link RateLimiter#decideAll}), each by the policy registered
     * under its request's policy name, waiting up to {@code maxWait} (zero: not at all) for the whole group: a refused
     * group is tried again after the longest {@code retryAfter} among its refusing limits. Returns the decisions of
     * the final try in order; the call is allowed when all are. Only the final try is counted and reported: a
     * refused group counts its refusing limits (the others granted nothing), an allowed group a permit on each. A
     * backend that cannot decide a group atomically stops at the first refusal, and the list is then shorter. An
     * empty group is allowed at once, with an empty list.
     *
     * @throws IllegalArgumentException (in the stage) if a name is not registered or permits are out of range
     */
    public CompletionStage<List<Decision>> acquireAll(List<RateLimitRequest> requests, Duration maxWait) {
        if (requests.isEmpty()) {
            return CompletableFuture.completedFuture(List.of()); // nothing to decide, count or wait for: allowed
        }
        List<Limit> group = new ArrayList<>(requests.size());
        List<RateLimitRequest> resolved = new ArrayList<>(requests.size());
        try {
            for (RateLimitRequest request : requests) {
                Limit limit = require(request.policy().name());
                limit.policy().checkPermits(request.permits());
                group.add(limit);
                resolved.add(new RateLimitRequest(limit.policy(), request.key(), request.permits()));
            }
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        AtomicLong lastStart = new AtomicLong();
        Supplier<CompletionStage<List<BackendOutcome>>> attempt = () -> {
            lastStart.set(nanoTime.getAsLong());
            return call(() -> backend.decideAll(resolved));
        };
        CompletionStage<List<BackendOutcome>> decided = maxWait.isZero() ? attempt.get()
                : new RetryingAcquire(timer(), nanoTime).acquire(attempt, RateLimiterRegistry::verdict, maxWait);
        return decided.handle((outcomes, error) -> {
            long latency = nanoTime.getAsLong() - lastStart.get();
            if (error != null) {
                group.forEach(limit -> record(limit, null, error, latency));
                throw error instanceof CompletionException c ? c : new CompletionException(error);
            }
            boolean allowed = outcomes.stream().allMatch(outcome -> outcome.decision().allowed());
            for (int i = 0; i < outcomes.size(); i++) {
                if (allowed || !outcomes.get(i).decision().allowed()) {
                    record(group.get(i), outcomes.get(i), null, latency);
                }
            }
            return outcomes.stream().map(BackendOutcome::decision).toList();
        });
    }

    private static Decision verdict(List<BackendOutcome> outcomes) {
        List<Decision> decisions = outcomes.stream().map(BackendOutcome::decision).toList();
        return decisions.get(Decision.answering(decisions));
    }

    /**
     * Waits up to {@code maxWait} for the permits, re-trying after each refusal's exact wait on a timer; only the
     * final answer is counted and reported (with the latency of the last attempt).
     */
    public CompletionStage<Decision> acquire(String name, String key, long permits, Duration maxWait) {
        return acquire(require(name), key, permits, maxWait);
    }

    /** {@link #acquire(String, String, long, Duration)} for a limit already looked up. */
    public CompletionStage<Decision> acquire(Limit limit, String key, long permits, Duration maxWait) {
        limit.policy().checkPermits(permits);
        AtomicLong lastStart = new AtomicLong();
        return new RetryingAcquire(timer(), nanoTime)
                .acquire(() -> {
                    lastStart.set(nanoTime.getAsLong());
                    return decide(limit, key, permits);
                }, BackendOutcome::decision, maxWait)
                .handle((outcome, error) -> {
                    record(limit, outcome, error, nanoTime.getAsLong() - lastStart.get());
                    if (error != null) {
                        throw error instanceof CompletionException c ? c : new CompletionException(error);
                    }
                    return outcome.decision();
                });
    }

    /**
     * What is left of {@code key}'s quota under the limit named {@code name}, without spending a permit (see
     * {@link RateLimiter#inspect}); not counted, observed or published, since no request was decided.
     *
     * @throws IllegalArgumentException if no policy has that name
     */
    public CompletionStage<Quota> inspect(String name, String key) {
        RateLimitPolicy policy = require(name).policy();
        return call(() -> backend.inspect(policy, key));
    }

    /**
     * Gives {@code key} its whole quota back under the limit named {@code name}, on every instance sharing the
     * backend (see {@link RateLimiter#reset}). Logged with the limit's name, never the key.
     *
     * @throws IllegalArgumentException if no policy has that name
     */
    public CompletionStage<Void> reset(String name, String key) {
        RateLimitPolicy policy = require(name).policy();
        return call(() -> backend.reset(policy, key)).thenRun(() ->
                log.info("Rate limiter '{}': one key's quota was reset", policy.name()));
    }

    /** Counters of the limiter named {@code name} since start-up. */
    public LimiterStats stats(String name) {
        Limit limit = require(name);
        return new LimiterStats(limit.permitted.sum(), limit.rejected.sum(), limit.errors.sum());
    }

    /** Receives RATE_LIMITED and BACKEND_FAILURE events of every limiter. */
    public void addListener(GuardEventListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** The recent events of the limiter named {@code name}, newest first. */
    public List<GuardEvent> recentEvents(String name) {
        return require(name).events.newestFirst();
    }

    public void addObserver(RateLimitObserver observer) {
        observers.add(Objects.requireNonNull(observer, "observer"));
    }

    public RateLimiter backend() {
        return backend;
    }

    /**
     * The backend's health: its own view if it keeps one (the {@link FailoverRateLimiter} does), else from the last
     * request this registry sent it.
     */
    public BackendHealth backendHealth() {
        return backend.health().orElse(lastSeen);
    }

    /** Stops the timer behind {@link #acquire}; the backend is left to its owner. */
    @Override
    public void close() {
        synchronized (timerLock) {
            if (timer != null) {
                timer.shutdownNow();
            }
        }
    }

    private CompletionStage<Decision> attempt(Limit limit, String key, long permits) {
        long start = nanoTime.getAsLong();
        return decide(limit, key, permits).handle((outcome, error) -> {
            record(limit, outcome, error, nanoTime.getAsLong() - start);
            if (error != null) {
                throw error instanceof CompletionException c ? c : new CompletionException(error);
            }
            return outcome.decision();
        });
    }

    /** {@code operation}'s stage, or a failed one if it throws instead. */
    private static <T> CompletionStage<T> call(Supplier<CompletionStage<T>> operation) {
        try {
            return operation.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletionStage<BackendOutcome> decide(Limit limit, String key, long permits) {
        return call(() -> backend.decide(limit.policy(), key, permits));
    }

    private void record(Limit limit, BackendOutcome outcome, Throwable error, long latencyNanos) {
        RateLimitPolicy policy = limit.policy();
        Throwable failure = error != null ? Failures.unwrap(error) : outcome.backendError();
        if (failure != null) {
            limit.errors.increment();
            if (backend.health().isEmpty()) {
                lastSeen = lastSeen.failed(failure, clock.instant());
            }
            warnFailedOver(limit, failure);
            observers.forEach(o -> notify(() -> o.onBackendError(policy, failure, latencyNanos)));
            publish(limit, GuardEvent.Type.BACKEND_FAILURE, latencyNanos, Map.of(
                    "error", Failures.describe(failure),
                    "onBackendFailure", policy.onBackendFailure().name(),
                    "backend", backend.backendName()));
        } else {
            (outcome.decision().allowed() ? limit.permitted : limit.rejected).increment();
            if (!lastSeen.up()) {
                lastSeen = lastSeen.recovered();
            }
            observers.forEach(o -> notify(() -> o.onDecision(policy, outcome.decision(), latencyNanos)));
        }
        if (outcome != null && !outcome.decision().allowed()) {
            publish(limit, GuardEvent.Type.RATE_LIMITED, latencyNanos, Map.of(
                    "retryAfterMillis", Long.toString(ceilMillis(outcome.decision().retryAfter())),
                    "remaining", Long.toString(outcome.decision().remaining()),
                    "limit", Long.toString(outcome.decision().limit())));
        }
    }

    /**
     * One WARN line for the first decision a failure policy made, then at most one per limit every 10 s, with the
     * number held back: a failure policy switched on silently is how a limit stops limiting unnoticed.
     */
    private void warnFailedOver(Limit limit, Throwable failure) {
        long heldBack = limit.failureLog.pass(clock.millis());
        if (heldBack < 0) {
            return;
        }
        RateLimitPolicy policy = limit.policy();
        log.warn("Rate limit '{}': backend {} could not decide ({}: {}); on-backend-failure {} {}{}", policy.name(),
                backend.backendName(), BackendFailureReason.of(failure).tag(), Failures.describe(failure),
                policy.onBackendFailure(), switch (policy.onBackendFailure()) {
                    case FAIL_OPEN -> "allowed the call without counting it";
                    case FAIL_CLOSED -> "refused the call";
                    case LOCAL -> "counted the call in this instance only";
                }, LogThrottle.heldBack(heldBack));
    }

    private void publish(Limit limit, GuardEvent.Type type, long latencyNanos, Map<String, String> details) {
        GuardEvent event = new GuardEvent(GuardEvent.Source.RATE_LIMITER, limit.policy().name(), type, clock.instant(),
                Duration.ofNanos(latencyNanos), details);
        limit.events.onEvent(event);
        listeners.forEach(l -> notify(() -> l.onEvent(event)));
    }

    private static void notify(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            log.warn("A rate-limit listener or observer threw; ignored", e);
        }
    }

    private static long ceilMillis(Duration duration) {
        long millis = duration.toMillis();
        return duration.minusMillis(millis).isZero() ? millis : millis + 1;
    }

    private Limit require(String name) {
        Limit limit = name == null ? null : limits.get(name);
        if (limit == null) {
            throw new IllegalArgumentException("no rate limiter named '" + name + "'; registered: "
                    + limits.keySet().stream().sorted().toList());
        }
        return limit;
    }

    private ScheduledExecutorService timer() {
        synchronized (timerLock) {
            if (timer == null) {
                timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
                    Thread thread = new Thread(runnable, "guard-rate-limit-acquire");
                    thread.setDaemon(true);
                    return thread;
                });
            }
            return timer;
        }
    }

    /**
     * A registered policy with its counters and events; registering the name again replaces the policy and keeps
     * them. Obtained from {@link #limit(String)}.
     */
    public static final class Limit {
        private volatile RateLimitPolicy policy;
        final EventBuffer events;
        final LongAdder permitted = new LongAdder();
        final LongAdder rejected = new LongAdder();
        final LongAdder errors = new LongAdder();
        final LogThrottle failureLog = new LogThrottle();

        Limit(RateLimitPolicy policy, EventBuffer events) {
            this.policy = policy;
            this.events = events;
        }

        /** The policy in force. */
        public RateLimitPolicy policy() {
            return policy;
        }

        Limit withPolicy(RateLimitPolicy replacement) {
            this.policy = replacement;
            return this;
        }
    }
}
