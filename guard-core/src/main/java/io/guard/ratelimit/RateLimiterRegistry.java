package io.guard.ratelimit;

import io.guard.event.EventBuffer;
import io.guard.event.GuardEvent;
import io.guard.event.GuardEventListener;
import io.guard.time.CallbackTimer;
import io.guard.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The named limits of an application and the one backend that decides them: what {@code @RateLimit}, the actuator
 * and the metrics binder talk to. Each request is decided by the backend with the policy registered under its
 * name, counted once (permitted, rejected or error), reported to observers, and, when refused or when the backend
 * failed, published as an event. Events name the limiter, never the resolved key, which may be personal data.
 *
 * <p>With a {@link FailoverRateLimiter} as backend, a request that the failure policy answered (allowed by
 * {@code FAIL_OPEN}, decided by {@code LOCAL}) counts as an error, not as a permit: the dashboards must show an
 * outage even when callers do not notice it.
 *
 * <p>The registry itself runs the single-limit paths; the limits by name ({@link RegisteredLimits}), what a decision
 * leaves behind ({@link DecisionRecorder}) and group decisions ({@link GroupAcquire}) are each a class of their own.
 * Waiting acquires come back on a {@link Scheduler}: the application's one timer when it passes one, else a
 * {@link CallbackTimer} of the registry's own, started on the first wait.
 */
public final class RateLimiterRegistry implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RateLimiterRegistry.class);
    /** Retries of waiting acquires that run at once on the registry's own timer (each only sends a decision). */
    private static final int WAITS_AT_ONCE = 2;

    private final RateLimiter backend;
    private final LongSupplier nanoTime;
    private final RegisteredLimits limits;
    private final DecisionRecorder recorder;
    private final Scheduler timer;
    /** Null when the timer is the caller's. */
    private final CallbackTimer ownTimer;
    private final GroupAcquire groups;

    /**
     * @param backend         decides every request; not closed by {@link #close()}
     * @param clock           timestamps events
     * @param eventBufferSize recent events kept per limiter; at least 1
     */
    public RateLimiterRegistry(RateLimiter backend, Clock clock, int eventBufferSize) {
        this(backend, clock, eventBufferSize, (Scheduler) null);
    }

    /**
     * @param timer brings waiting acquires back, and stays the caller's to close; {@code null}: a timer of the
     *              registry's own, closed by {@link #close()}
     */
    public RateLimiterRegistry(RateLimiter backend, Clock clock, int eventBufferSize, Scheduler timer) {
        this(backend, clock, eventBufferSize, System::nanoTime, timer);
    }

    RateLimiterRegistry(RateLimiter backend, Clock clock, int eventBufferSize, LongSupplier nanoTime) {
        this(backend, clock, eventBufferSize, nanoTime, (Scheduler) null);
    }

    private RateLimiterRegistry(RateLimiter backend, Clock clock, int eventBufferSize, LongSupplier nanoTime,
                                Scheduler timer) {
        this.ownTimer = timer != null ? null
                : new CallbackTimer("guard-rate-limit-acquire", "guard-rate-limit-acquire-callback", WAITS_AT_ONCE);
        this.timer = timer != null ? timer : ownTimer;
        this.backend = Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(clock, "clock");
        this.limits = new RegisteredLimits(eventBufferSize);
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.recorder = new DecisionRecorder(backend, clock);
        this.groups = new GroupAcquire(backend, limits, recorder, timer, nanoTime);
    }

    /** Registers {@code policy} under its name, replacing a policy of that name (its counters and events stay). */
    public RateLimitPolicy register(RateLimitPolicy policy) {
        limits.register(policy);
        return policy;
    }

    /**
     * The limit registered under {@code name}, or {@code null}: what a caller that decides many times per call
     * (Guard's aspect) holds, so the name is looked up once per call rather than once per step. Its
     * {@link Limit#policy()} is the policy in force, replaced in place when the limit is registered again.
     */
    public Limit limit(String name) {
        return limits.get(name);
    }

    public Optional<RateLimitPolicy> find(String name) {
        return Optional.ofNullable(limits.get(name)).map(Limit::policy);
    }

    /** The registered policies (a snapshot). */
    public Collection<RateLimitPolicy> policies() {
        return limits.policies();
    }

    /**
     * Takes {@code permits} for {@code key} under the policy named {@code name} if available now.
     *
     * @throws IllegalArgumentException if no policy has that name or {@code permits} is out of range
     * @throws RateLimiterBackendException if the backend failed and the policy says {@code FAIL_CLOSED}
     */
    public Decision tryAcquire(String name, String key, long permits) {
        return tryAcquire(limits.require(name), key, permits);
    }

    /** {@link #tryAcquire} without blocking; a backend failure under {@code FAIL_CLOSED} fails the stage. */
    public CompletionStage<Decision> tryAcquireAsync(String name, String key, long permits) {
        return tryAcquireAsync(limits.require(name), key, permits);
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
        RateLimitPolicy policy = limit.policy();
        policy.checkPermits(permits);
        long start = nanoTime.getAsLong();
        CompletionStage<BackendOutcome> decided;
        try {
            decided = backend.decide(policy, key, permits);
        } catch (RuntimeException e) {
            decided = CompletableFuture.failedFuture(e);
        }
        return decided.handle((outcome, error) -> recorded(limit, policy, outcome, error,
                nanoTime.getAsLong() - start));
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
        return groups.acquireAll(requests, maxWait);
    }

    /**
     * Waits up to {@code maxWait} for the permits, re-trying after each refusal's exact wait on a timer; only the
     * final answer is counted and reported (with the latency of the last attempt).
     */
    public CompletionStage<Decision> acquire(String name, String key, long permits, Duration maxWait) {
        return acquire(limits.require(name), key, permits, maxWait);
    }

    /** {@link #acquire(String, String, long, Duration)} for a limit already looked up. */
    public CompletionStage<Decision> acquire(Limit limit, String key, long permits, Duration maxWait) {
        limit.policy().checkPermits(permits);
        AtomicLong lastStart = new AtomicLong();
        return new RetryingAcquire(timer, nanoTime)
                .acquire(() -> {
                    lastStart.set(nanoTime.getAsLong());
                    return decide(limit, key, permits);
                }, BackendOutcome::decision, maxWait)
                .handle((outcome, error) -> recorded(limit, limit.policy(), outcome, error,
                        nanoTime.getAsLong() - lastStart.get()));
    }

    /**
     * Charges a cost known after the call ({@link RateLimiter#charge}), bounded by {@link RateLimitPolicy#checkCharge};
     * reported to observers, and a failure logged (throttled) before it fails the stage.
     */
    public CompletionStage<Quota> charge(Limit limit, String key, long permits) {
        RateLimitPolicy policy = limit.policy();
        return Failures.stageOf(() -> backend.charge(policy, key, policy.checkCharge(permits)))
                .whenComplete((quota, error) -> recorder.charged(limit, policy, permits, quota, error));
    }

    /**
     * What is left of {@code key}'s quota under the limit named {@code name}, without spending a permit (see
     * {@link RateLimiter#inspect}); not counted, observed or published, since no request was decided.
     *
     * @throws IllegalArgumentException if no policy has that name
     */
    public CompletionStage<Quota> inspect(String name, String key) {
        RateLimitPolicy policy = limits.require(name).policy();
        return Failures.stageOf(() -> backend.inspect(policy, key));
    }

    /**
     * Gives {@code key} its whole quota back under the limit named {@code name}, on every instance sharing the
     * backend (see {@link RateLimiter#reset}). Logged with the limit's name, never the key.
     *
     * @throws IllegalArgumentException if no policy has that name
     */
    public CompletionStage<Void> reset(String name, String key) {
        RateLimitPolicy policy = limits.require(name).policy();
        return Failures.stageOf(() -> backend.reset(policy, key)).thenRun(() ->
                log.info("Rate limiter '{}': one key's quota was reset", policy.name()));
    }

    /** Counters of the limiter named {@code name} since start-up. */
    public LimiterStats stats(String name) {
        Limit limit = limits.require(name);
        return new LimiterStats(limit.permitted.sum(), limit.rejected.sum(), limit.errors.sum());
    }

    /** Receives RATE_LIMITED and BACKEND_FAILURE events of every limiter. */
    public void addListener(GuardEventListener listener) {
        recorder.addListener(listener);
    }

    /** The recent events of the limiter named {@code name}, newest first. */
    public List<GuardEvent> recentEvents(String name) {
        return limits.require(name).events.newestFirst();
    }

    public void addObserver(RateLimitObserver observer) {
        recorder.addObserver(observer);
    }

    public RateLimiter backend() {
        return backend;
    }

    /** The backend's health: its own view if it keeps one ({@link FailoverRateLimiter}), else from the last request. */
    public BackendHealth backendHealth() {
        return recorder.backendHealth();
    }

    /** Stops the registry's own timer behind {@link #acquire}, if it has one; the backend is left to its owner. */
    @Override
    public void close() {
        if (ownTimer != null) {
            ownTimer.close();
        }
    }

    /** Records the final answer to a request decided under {@code policy}; hands its decision or failure on. */
    private Decision recorded(Limit limit, RateLimitPolicy policy, BackendOutcome outcome, Throwable error,
                              long latencyNanos) {
        Decision decision = recorder.record(limit, policy, outcome, error, latencyNanos);
        if (error != null) {
            throw error instanceof CompletionException c ? c : new CompletionException(error);
        }
        return decision;
    }

    private CompletionStage<BackendOutcome> decide(Limit limit, String key, long permits) {
        return Failures.stageOf(() -> backend.decide(limit.policy(), key, permits));
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
        final LogThrottle chargeLog = new LogThrottle();

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
