package io.guard.ratelimit;

import io.guard.breaker.CallNotPermittedException;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerConfig;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
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
        if (!breaker.tryAcquirePermission()) {
            return fallBack(policy, key, permits, skipped("rate limiter '" + policy.name() + "': "));
        }
        long start = breaker.currentTimeNanos();
        CompletionStage<BackendOutcome> call;
        try {
            call = primary.decide(policy, key, permits);
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        return call.handle((decided, error) -> {
            long elapsed = breaker.currentTimeNanos() - start;
            if (error == null) {
                succeeded(elapsed);
                return CompletableFuture.completedFuture(decided);
            }
            Throwable cause = Failures.unwrap(error);
            if (!(cause instanceof RateLimiterBackendException backendFailure)) {
                breaker.releasePermission();
                return CompletableFuture.<BackendOutcome>failedFuture(cause);
            }
            failed(elapsed, backendFailure);
            return fallBack(policy, key, permits, backendFailure);
        }).thenCompose(stage -> stage);
    }

    /**
     * Asks the primary, through the breaker like a decision (it is a round trip too). No failure policy answers in
     * its place: while the primary cannot answer, the stage fails with a {@link RateLimiterBackendException}.
     */
    @Override
    public CompletionStage<Quota> inspect(RateLimitPolicy policy, String key) {
        return guarded(policy, "inspect", () -> primary.inspect(policy, key));
    }

    /**
     * Resets the in-process backend (which holds what {@code LOCAL} decided during an outage) and the primary,
     * through the breaker; fails like {@link #inspect} while the primary cannot answer.
     */
    @Override
    public CompletionStage<Void> reset(RateLimitPolicy policy, String key) {
        local.reset(policy, key);
        return guarded(policy, "reset", () -> primary.reset(policy, key));
    }

    private <T> CompletionStage<T> guarded(RateLimitPolicy policy, String operation,
                                           Supplier<CompletionStage<T>> call) {
        if (!breaker.tryAcquirePermission()) {
            return CompletableFuture.failedFuture(skipped("rate limiter '" + policy.name() + "': cannot " + operation
                    + " the quota: "));
        }
        long start = breaker.currentTimeNanos();
        CompletionStage<T> stage;
        try {
            stage = call.get();
        } catch (RuntimeException e) {
            stage = CompletableFuture.failedFuture(e);
        }
        return stage.handle((value, error) -> {
            long elapsed = breaker.currentTimeNanos() - start;
            if (error == null) {
                succeeded(elapsed);
                return value;
            }
            Throwable cause = Failures.unwrap(error);
            if (cause instanceof RateLimiterBackendException backendFailure) {
                failed(elapsed, backendFailure);
            } else {
                breaker.releasePermission();
            }
            throw new CompletionException(cause);
        });
    }

    /** The failure of a call the open breaker kept from the primary; {@code prefix} says whose call it was. */
    private RateLimiterBackendException skipped(String prefix) {
        CallNotPermittedException open = new CallNotPermittedException(breaker.name(), breaker.state(),
                breaker.remainingOpenTime());
        return new RateLimiterBackendException(prefix + "backend " + primary.backendName()
                + " skipped, circuit breaker '" + breaker.name() + "' is " + breaker.state(), open);
    }

    private void succeeded(long elapsedNanos) {
        breaker.onSuccess(elapsedNanos);
        BackendHealth last = health.get();
        if (!last.up()) {
            health.compareAndSet(last, new BackendHealth(true, last.backend(), null, last.lastError(),
                    last.lastErrorTime()));
        }
    }

    private void failed(long elapsedNanos, RateLimiterBackendException failure) {
        breaker.onError(elapsedNanos, failure);
        health.set(new BackendHealth(false, primary.backendName(), null, Failures.describe(failure),
                clock.instant()));
    }

    private CompletionStage<BackendOutcome> fallBack(RateLimitPolicy policy, String key, long permits,
                                                     RateLimiterBackendException failure) {
        return switch (policy.onBackendFailure()) {
            case FAIL_OPEN -> CompletableFuture.completedFuture(new BackendOutcome(new Decision(true,
                    Math.max(0, policy.rate() - permits), Duration.ZERO, Duration.ZERO, policy.rate()), failure));
            case FAIL_CLOSED -> CompletableFuture.failedFuture(failure);
            case LOCAL -> local.decide(policy, key, permits)
                    .thenApply(outcome -> new BackendOutcome(outcome.decision(), failure));
        };
    }
}
