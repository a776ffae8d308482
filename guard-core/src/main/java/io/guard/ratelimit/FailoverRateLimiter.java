package io.guard.ratelimit;

import io.guard.breaker.CallNotPermittedException;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerConfig;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
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
 * refusal the backend remembers ({@link RateLimiter#remembered}) is answered without the breaker, whose view of the
 * backend comes from round trips only.
 */
public final class FailoverRateLimiter implements RateLimiter {

    private final RateLimiter primary;
    private final RateLimiter local;
    private final CircuitBreaker breaker;
    private final Clock clock;
    private final AtomicReference<BackendHealth> health;

    /**
     * @param primary the backend to protect (usually a {@code RedisRateLimiter})
     * @param local   decides {@code LOCAL} policies while the primary cannot (usually a {@code LocalRateLimiter})
     * @param breaker guards the primary; see {@link #recommendedBreakerConfig()}
     * @param clock   timestamps failures for {@link #health()}
     */
    public FailoverRateLimiter(RateLimiter primary, RateLimiter local, CircuitBreaker breaker, Clock clock) {
        this.primary = Objects.requireNonNull(primary, "primary");
        this.local = Objects.requireNonNull(local, "local");
        this.breaker = Objects.requireNonNull(breaker, "breaker");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.health = new AtomicReference<>(BackendHealth.up(primary.backendName()));
    }

    /**
     * A breaker configuration suited to a backend that is either there or not: opens when half of the last 10
     * calls (at least 3) failed or took a second or more, probes with one call after 2 seconds.
     */
    public static CircuitBreakerConfig recommendedBreakerConfig() {
        return CircuitBreakerConfig.builder()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(10)
                .minimumNumberOfCalls(3)
                .failureRateThreshold(50f)
                .slowCallDurationThreshold(Duration.ofSeconds(1))
                .slowCallRateThreshold(50f)
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
                last.lastErrorTime()));
    }

    /** The breaker guarding the primary, for the actuator. */
    public CircuitBreaker breaker() {
        return breaker;
    }

    /** Closes both backends. */
    @Override
    public void close() {
        primary.close();
        local.close();
    }

    /** Decides, telling apart a backend decision from one the failure policy made after a backend failure. */
    @Override
    public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
        // Only round trips may tell the breaker whether the backend is up: a remembered refusal is answered before
        // (and whatever) the breaker decides, so it neither hides an outage nor closes the breaker as a trial call.
        Decision remembered = primary.remembered(policy, key, permits);
        if (remembered != null) {
            return CompletableFuture.completedFuture(new BackendOutcome(remembered, null));
        }
        return guarded(() -> primary.decide(policy, key, permits),
                failure -> fallBack(policy, key, permits, failure), "rate limiter '" + policy.name() + "': ");
    }

    /**
     * All-or-nothing through the primary; when it cannot decide, each limit's failure policy answers for that
     * limit, as for a single decision: any {@code FAIL_CLOSED} limit fails the call, {@code FAIL_OPEN} limits allow,
     * and the {@code LOCAL} limits are decided in process, all-or-nothing among themselves.
     */
    @Override
    public CompletionStage<List<BackendOutcome>> decideAll(List<RateLimitRequest> requests) {
        String names = String.join(", ", requests.stream().map(request -> request.policy().name()).toList());
        return guarded(() -> primary.decideAll(requests), failure -> fallBackAll(requests, failure),
                "rate limiter '" + names + "': ");
    }

    /**
     * Asks the primary, through the breaker like a decision (it is a round trip too). No failure policy answers in
     * its place: while the primary cannot answer, the stage fails with a {@link RateLimiterBackendException}.
     */
    @Override
    public CompletionStage<Quota> inspect(RateLimitPolicy policy, String key) {
        return guarded(() -> primary.inspect(policy, key), CompletableFuture::failedFuture,
                "rate limiter '" + policy.name() + "': cannot inspect the quota: ");
    }

    /**
     * Resets the in-process backend (which holds what {@code LOCAL} decided during an outage) and the primary,
     * through the breaker; fails like {@link #inspect} while the primary cannot answer.
     */
    @Override
    public CompletionStage<Void> reset(RateLimitPolicy policy, String key) {
        local.reset(policy, key);
        return guarded(() -> primary.reset(policy, key), CompletableFuture::failedFuture,
                "rate limiter '" + policy.name() + "': cannot reset the quota: ");
    }

    /**
     * Runs {@code call} on the primary behind the breaker, or {@code fallBack} when it cannot or did not answer;
     * {@code prefix} says whose call it was in the failure's message.
     */
    private <T> CompletionStage<T> guarded(Supplier<CompletionStage<T>> call,
                                           Function<RateLimiterBackendException, CompletionStage<T>> fallBack,
                                           String prefix) {
        if (!breaker.tryAcquirePermission()) {
            CallNotPermittedException open = new CallNotPermittedException(breaker.name(), breaker.state(),
                    breaker.remainingOpenTime());
            return fallBack.apply(new RateLimiterBackendException(prefix
                    + "backend " + primary.backendName() + " skipped, circuit breaker '" + breaker.name()
                    + "' is " + breaker.state(), open));
        }
        long start = breaker.currentTimeNanos();
        CompletionStage<T> decided;
        try {
            decided = call.get();
        } catch (RuntimeException e) {
            decided = CompletableFuture.failedFuture(e);
        }
        return decided.handle((result, error) -> {
            long elapsed = breaker.currentTimeNanos() - start;
            if (error == null) {
                breaker.onSuccess(elapsed);
                BackendHealth last = health.get();
                if (!last.up()) {
                    health.compareAndSet(last, new BackendHealth(true, last.backend(), null, last.lastError(),
                            last.lastErrorTime()));
                }
                return CompletableFuture.completedFuture(result);
            }
            Throwable cause = Failures.unwrap(error);
            if (!(cause instanceof RateLimiterBackendException backendFailure)) {
                breaker.releasePermission();
                return CompletableFuture.<T>failedFuture(cause);
            }
            breaker.onError(elapsed, backendFailure);
            health.set(new BackendHealth(false, primary.backendName(), null, Failures.describe(backendFailure),
                    clock.instant()));
            return fallBack.apply(backendFailure);
        }).thenCompose(stage -> stage);
    }

    private CompletionStage<List<BackendOutcome>> fallBackAll(List<RateLimitRequest> requests,
                                                             RateLimiterBackendException failure) {
        if (requests.stream().anyMatch(r -> r.policy().onBackendFailure() == BackendFailurePolicy.FAIL_CLOSED)) {
            return CompletableFuture.failedFuture(failure);
        }
        List<RateLimitRequest> local = requests.stream()
                .filter(r -> r.policy().onBackendFailure() == BackendFailurePolicy.LOCAL).toList();
        CompletionStage<List<BackendOutcome>> decidedLocally = local.isEmpty()
                ? CompletableFuture.completedFuture(List.of()) : this.local.decideAll(local);
        return decidedLocally.thenApply(localOutcomes -> {
            List<BackendOutcome> outcomes = new ArrayList<>(requests.size());
            int next = 0;
            for (RateLimitRequest request : requests) {
                Decision decision = request.policy().onBackendFailure() == BackendFailurePolicy.LOCAL
                        ? localOutcomes.get(next++).decision() : allowed(request.policy(), request.permits());
                outcomes.add(new BackendOutcome(decision, failure));
            }
            return outcomes;
        });
    }

    private static Decision allowed(RateLimitPolicy policy, long permits) {
        return new Decision(true, Math.max(0, policy.rate() - permits), Duration.ZERO, Duration.ZERO, policy.rate());
    }

    private CompletionStage<BackendOutcome> fallBack(RateLimitPolicy policy, String key, long permits,
                                                     RateLimiterBackendException failure) {
        return switch (policy.onBackendFailure()) {
            case FAIL_OPEN -> CompletableFuture.completedFuture(new BackendOutcome(allowed(policy, permits), failure));
            case FAIL_CLOSED -> CompletableFuture.failedFuture(failure);
            case LOCAL -> local.decide(policy, key, permits)
                    .thenApply(outcome -> new BackendOutcome(outcome.decision(), failure));
        };
    }
}
