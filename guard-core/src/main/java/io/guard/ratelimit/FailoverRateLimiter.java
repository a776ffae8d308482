package io.guard.ratelimit;

import io.guard.breaker.CallNotPermittedException;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerConfig;
import io.guard.time.Scheduler;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Puts each policy's {@link BackendFailurePolicy} in front of a remote backend (Redis): when the backend cannot
 * decide, {@code FAIL_OPEN} allows, {@code FAIL_CLOSED} throws {@link RateLimiterBackendException} (HTTP 503) and
 * {@code LOCAL} decides in process with the same policy.
 *
 * <p>A Guard {@link CircuitBreaker} watches the backend, so an outage costs a few timeouts rather than one per
 * call: while the breaker is open, calls skip the backend and go straight to the failure policy, and a half-open
 * trial call finds out when the backend is back. Refusals for lack of permits are successes for the breaker; a
 * refusal the backend remembers ({@link RateLimiter#prepare}) is answered without the breaker, whose view of the
 * backend comes from round trips only.
 *
 * <p><b>How long a call may take: a sick backend, not a busy client.</b> The breaker's
 * {@link CircuitBreakerConfig#timeout() timeout} ({@code guard.rate-limit.redis.timeout}) bounds a call while the
 * backend is silent: a call unanswered by then is the backend's failure (the failure policy answers, the breaker
 * records it) when the backend delivered no reply at all meanwhile (its {@link RateLimiter#pulse() pulse} did not
 * move) although it had answered before, and this client shows no stall: the timer fired on time and the machine's
 * CPU is not saturated. Otherwise the reply may well be late in the client (a cold start, a starved event loop, a GC
 * pause), so the call waits on, up to {@value #PATIENCE} times the timeout; if it is still unanswered then, the
 * failure policy answers, and the breaker records a failure only if the backend stayed silent all along. So a hung,
 * paused or unreachable backend costs a caller one timeout (the patience limit before its first reply or on a stalled
 * client), and a busy client never opens the breaker. The backend's stage is cancelled when a call is given up, so
 * that it can drop the call if it has not sent it yet; its late reply is ignored.
 *
 * <p>What each failure policy answers is {@link FailurePolicyAnswers}'s job; watching one call, {@link WatchedCall}'s;
 * the timeouts and the timer, {@link CallDeadlines}'.
 */
public final class FailoverRateLimiter implements RateLimiter {

    /** How many timeouts a call may wait while the backend is known to be alive or the client was stalled. */
    public static final int PATIENCE = 4;

    private final RateLimiter primary;
    private final RateLimiter local;
    private final CircuitBreaker breaker;
    private final Clock clock;
    private final CallDeadlines deadlines;
    private final BackendPulse pulse;
    private final AtomicReference<BackendHealth> health;
    private final BreakerWarnings warnings;
    private final FailurePolicyAnswers failurePolicies;

    /**
     * A failover timing its calls on a daemon thread of its own, started on first use.
     *
     * @param primary the backend to protect (usually a {@code RedisRateLimiter})
     * @param local   decides {@code LOCAL} policies while the primary cannot (usually a {@code LocalRateLimiter})
     * @param breaker guards the primary; see {@link #recommendedBreakerConfig()}
     * @param clock   timestamps failures for {@link #health()}
     */
    public FailoverRateLimiter(RateLimiter primary, RateLimiter local, CircuitBreaker breaker, Clock clock) {
        this(primary, local, breaker, clock, null);
    }

    /**
     * @param scheduler times the calls on the breaker's clock ({@link CircuitBreaker#currentTimeNanos()}); a test
     *                  passes the {@code ManualClock} the breaker runs on; {@code null}: a thread of its own
     */
    public FailoverRateLimiter(RateLimiter primary, RateLimiter local, CircuitBreaker breaker, Clock clock,
                               Scheduler scheduler) {
        this(primary, local, breaker, clock, scheduler, ClientLoad.system());
    }

    FailoverRateLimiter(RateLimiter primary, RateLimiter local, CircuitBreaker breaker, Clock clock,
                        Scheduler scheduler, ClientLoad clientLoad) {
        this.primary = Objects.requireNonNull(primary, "primary");
        this.local = Objects.requireNonNull(local, "local");
        this.breaker = Objects.requireNonNull(breaker, "breaker");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.deadlines = new CallDeadlines(breaker, scheduler, Objects.requireNonNull(clientLoad, "clientLoad"));
        this.pulse = Objects.requireNonNull(primary.pulse(), "pulse");
        this.health = new AtomicReference<>(BackendHealth.up(primary.backendName()));
        this.warnings = new BreakerWarnings(breaker, primary.backendName(), () -> health.get().lastError(), clock);
        this.failurePolicies = new FailurePolicyAnswers(local);
    }

    /**
     * How long a decision may wait for the backend unless told otherwise; see
     * {@link #recommendedBreakerConfig(Duration)}.
     */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(250);

    /** {@link #recommendedBreakerConfig(Duration)} with {@link #DEFAULT_TIMEOUT}. */
    public static CircuitBreakerConfig recommendedBreakerConfig() {
        return recommendedBreakerConfig(DEFAULT_TIMEOUT);
    }

    /**
     * A breaker configuration suited to a backend that is either there or not: every decision waits at most
     * {@code timeout} for a silent backend (the breaker's {@link CircuitBreakerConfig#timeout() timeout}, so trial
     * calls too; see the class comment for the patience a busy client gets), the breaker opens when at least 3 of the
     * last 5 calls failed or timed out, and probes with one call after 2 seconds. A window of 5 rather than 10 means
     * a healthy history delays the opening by no more than one failure: 3 failures open it, however many calls
     * succeeded before. A call counts as slow only past the patience limit ({@value #PATIENCE} x {@code timeout}),
     * where it is given up anyway: a reply that was late in a busy client is a success, not a sign of a slow backend.
     *
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public static CircuitBreakerConfig recommendedBreakerConfig(Duration timeout) {
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("backend timeout must be positive but was " + timeout);
        }
        return CircuitBreakerConfig.builder()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(5)
                .minimumNumberOfCalls(3)
                .failureRateThreshold(50f)
                .slowCallDurationThreshold(timeout.multipliedBy(PATIENCE))
                .slowCallRateThreshold(100f)
                .timeout(timeout)
                .waitDurationInOpenState(Duration.ofSeconds(2))
                .permittedNumberOfCallsInHalfOpenState(1)
                .build();
    }

    @Override
    public String backendName() {
        return primary.backendName();
    }

    /** The primary's health as last seen, with the breaker's state; down while the breaker refuses calls. */
    @Override
    public Optional<BackendHealth> health() {
        BackendHealth last = health.get();
        String state = breaker.state().name();
        boolean admits = switch (breaker.state()) {
            case OPEN, FORCED_OPEN -> false;
            default -> true;
        };
        return Optional.of(new BackendHealth(last.up() && admits, last.backend(), state, last.lastError(),
                last.lastErrorTime(), last.up() ? null : last.downSince(), last.reason()));
    }

    /** The breaker guarding the primary, for the actuator. */
    public CircuitBreaker breaker() {
        return breaker;
    }

    /** Closes both backends, and the timer thread if this failover started one. */
    @Override
    public void close() {
        deadlines.close();
        primary.close();
        local.close();
    }

    /** Decides, telling apart a backend decision from one the failure policy made after a backend failure. */
    @Override
    public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
        // Only round trips may tell the breaker whether the backend is up: a remembered refusal is answered before
        // (and whatever) the breaker decides, so it neither hides an outage nor closes the breaker as a trial call.
        Prepared prepared = primary.prepare(policy, key, permits);
        if (prepared.remembered() != null) {
            return CompletableFuture.completedFuture(new BackendOutcome(prepared.remembered(), null));
        }
        return guarded(prepared.roundTrip(),
                failure -> failurePolicies.answer(policy, key, permits, failure), () -> "rate limiter '" + policy.name() + "': ");
    }

    /**
     * All-or-nothing through the primary; when it cannot decide, each limit's failure policy answers for that
     * limit, as for a single decision: any {@code FAIL_CLOSED} limit fails the call, {@code FAIL_OPEN} limits allow,
     * and the {@code LOCAL} limits are decided in process, all-or-nothing among themselves.
     */
    @Override
    public CompletionStage<List<BackendOutcome>> decideAll(List<RateLimitRequest> requests) {
        return guarded(() -> primary.decideAll(requests), failure -> failurePolicies.answerAll(requests, failure),
                () -> "rate limiter '" + String.join(", ", requests.stream().map(r -> r.policy().name()).toList())
                        + "': ");
    }

    /**
     * Asks the primary, through the breaker like a decision (it is a round trip too). No failure policy answers in
     * its place: while the primary cannot answer, the stage fails with a {@link RateLimiterBackendException}.
     */
    @Override
    public CompletionStage<Quota> inspect(RateLimitPolicy policy, String key) {
        return guarded(() -> primary.inspect(policy, key), CompletableFuture::failedFuture,
                () -> "rate limiter '" + policy.name() + "': cannot inspect the quota: ");
    }

    /**
     * Resets the in-process backend (which holds what {@code LOCAL} decided during an outage) and the primary,
     * through the breaker; fails like {@link #inspect} while the primary cannot answer.
     */
    @Override
    public CompletionStage<Void> reset(RateLimitPolicy policy, String key) {
        local.reset(policy, key);
        return guarded(() -> primary.reset(policy, key), CompletableFuture::failedFuture,
                () -> "rate limiter '" + policy.name() + "': cannot reset the quota: ");
    }

    /**
     * Charges through the breaker, like a decision; while the primary cannot, a {@code LOCAL} limit is charged in
     * process, where its calls are decided meanwhile, and any other fails the stage (the caller logs and counts it).
     */
    @Override
    public CompletionStage<Quota> charge(RateLimitPolicy policy, String key, long permits) {
        return guarded(() -> primary.charge(policy, key, permits),
                failure -> policy.onBackendFailure() == BackendFailurePolicy.LOCAL
                        ? local.charge(policy, key, permits) : CompletableFuture.failedFuture(failure),
                () -> "rate limiter '" + policy.name() + "': cannot charge the cost: ");
    }

    /**
     * Runs {@code call} on the primary behind the breaker, or {@code fallBack} when it cannot or did not answer (see
     * {@link WatchedCall}); {@code prefix} says whose call it was in the failure's message, made only on a failure,
     * not on every decision.
     */
    private <T> CompletionStage<T> guarded(Supplier<CompletionStage<T>> call,
                                           Function<RateLimiterBackendException, CompletionStage<T>> fallBack,
                                           Supplier<String> prefix) {
        CircuitBreaker.Permit permit = breaker.tryAcquire();
        if (permit == null) {
            warnings.look();
            CallNotPermittedException open = new CallNotPermittedException(breaker.name(), breaker.state(),
                    breaker.remainingOpenTime());
            return fallBack.apply(new RateLimiterBackendException(prefix.get() + "backend " + primary.backendName()
                    + " skipped, circuit breaker '" + breaker.name() + "' is " + breaker.state(), open));
        }
        long repliesAtStart = pulse.replies();
        CompletableFuture<T> pending;
        try {
            pending = call.get().toCompletableFuture();
        } catch (RuntimeException e) {
            pending = CompletableFuture.failedFuture(e);
        }
        return new WatchedCall<>(this, permit, pending, repliesAtStart, fallBack, prefix).watch();
    }

    /** How long this failover's calls may take, on the breaker's clock. */
    CallDeadlines deadlines() {
        return deadlines;
    }

    /** The primary's. */
    @Override
    public BackendPulse pulse() {
        return pulse;
    }

    void succeeded() {
        BackendHealth last = health.get();
        if (!last.up()) {
            health.compareAndSet(last, last.recovered());
            warnings.look();
        }
    }

    void failed(RateLimiterBackendException failure) {
        health.updateAndGet(last -> last.failed(failure, clock.instant()));
        warnings.look();
    }
}
