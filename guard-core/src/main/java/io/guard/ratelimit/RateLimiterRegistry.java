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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
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
    private final DecisionRecords records;
    private final int eventBufferSize;
    private final LongSupplier nanoTime;
    private final Map<String, RegisteredLimit> limits = new ConcurrentHashMap<>();
    private final Object timerLock = new Object();
    private ScheduledExecutorService timer;

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
        this.records = new DecisionRecords(backend, clock);
    }

    /** Registers {@code policy} under its name, replacing a policy of that name (its counters and events stay). */
    public RateLimitPolicy register(RateLimitPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        limits.compute(policy.name(), (name, existing) -> existing == null
                ? new RegisteredLimit(policy, new EventBuffer(eventBufferSize)) : existing.withPolicy(policy));
        return policy;
    }

    public Optional<RateLimitPolicy> find(String name) {
        RegisteredLimit limit = name == null ? null : limits.get(name);
        return Optional.ofNullable(limit).map(RegisteredLimit::policy);
    }

    /** The registered policies (a snapshot). */
    public Collection<RateLimitPolicy> policies() {
        return limits.values().stream().map(RegisteredLimit::policy).toList();
    }

    /**
     * Takes {@code permits} for {@code key} under the policy named {@code name} if available now.
     *
     * @throws IllegalArgumentException if no policy has that name or {@code permits} is out of range
     * @throws RateLimiterBackendException if the backend failed and the policy says {@code FAIL_CLOSED}
     */
    public Decision tryAcquire(String name, String key, long permits) {
        try {
            return tryAcquireAsync(name, key, permits).toCompletableFuture().join();
        } catch (CompletionException e) {
            throw Failures.rethrowable(e);
        }
    }

    /** {@link #tryAcquire} without blocking; a backend failure under {@code FAIL_CLOSED} fails the stage. */
    public CompletionStage<Decision> tryAcquireAsync(String name, String key, long permits) {
        RegisteredLimit limit = require(name);
        limit.policy().checkPermits(permits);
        return attempt(limit, key, permits).thenApply(BackendOutcome::decision);
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
        List<RegisteredLimit> group = new ArrayList<>(requests.size());
        List<RateLimitRequest> resolved = new ArrayList<>(requests.size());
        try {
            for (RateLimitRequest request : requests) {
                RegisteredLimit limit = require(request.policy().name());
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
                group.forEach(limit -> records.record(limit, null, error, latency));
                throw error instanceof CompletionException c ? c : new CompletionException(error);
            }
            boolean allowed = outcomes.stream().allMatch(outcome -> outcome.decision().allowed());
            for (int i = 0; i < outcomes.size(); i++) {
                if (allowed || !outcomes.get(i).decision().allowed()) {
                    records.record(group.get(i), outcomes.get(i), null, latency);
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
        RegisteredLimit limit = require(name);
        limit.policy().checkPermits(permits);
        AtomicLong lastStart = new AtomicLong();
        return new RetryingAcquire(timer(), nanoTime)
                .acquire(() -> {
                    lastStart.set(nanoTime.getAsLong());
                    return decide(limit, key, permits);
                }, BackendOutcome::decision, maxWait)
                .handle((outcome, error) -> {
                    records.record(limit, outcome, error, nanoTime.getAsLong() - lastStart.get());
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
        RegisteredLimit limit = require(name);
        return new LimiterStats(limit.permitted.sum(), limit.rejected.sum(), limit.errors.sum());
    }

    /** Receives RATE_LIMITED and BACKEND_FAILURE events of every limiter. */
    public void addListener(GuardEventListener listener) {
        records.addListener(listener);
    }

    /** The recent events of the limiter named {@code name}, newest first. */
    public List<GuardEvent> recentEvents(String name) {
        return require(name).events.newestFirst();
    }

    public void addObserver(RateLimitObserver observer) {
        records.addObserver(observer);
    }

    public RateLimiter backend() {
        return backend;
    }

    /**
     * The backend's health: its own view if it keeps one (the {@link FailoverRateLimiter} does), else from the last
     * request this registry sent it.
     */
    public BackendHealth backendHealth() {
        return records.backendHealth();
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

    private CompletionStage<BackendOutcome> attempt(RegisteredLimit limit, String key, long permits) {
        long start = nanoTime.getAsLong();
        return decide(limit, key, permits).handle((outcome, error) -> {
            records.record(limit, outcome, error, nanoTime.getAsLong() - start);
            if (error != null) {
                throw error instanceof CompletionException c ? c : new CompletionException(error);
            }
            return outcome;
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

    private CompletionStage<BackendOutcome> decide(RegisteredLimit limit, String key, long permits) {
        return call(() -> backend.decide(limit.policy(), key, permits));
    }

    private RegisteredLimit require(String name) {
        RegisteredLimit limit = name == null ? null : limits.get(name);
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
}
