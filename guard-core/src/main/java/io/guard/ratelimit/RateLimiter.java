package io.guard.ratelimit;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * A backend that decides requests for permits: the SPI behind {@code @RateLimit}. Implementations: Redis (one
 * atomic Lua script per decision, a quota shared by every instance) and in-process (same algorithms, same
 * {@link Decision} semantics), and the failover that puts a failure policy in front of Redis.
 *
 * <p>One primitive for decisions, {@link #decide}, asynchronous; the blocking form is derived from it, and waiting
 * for permits is done above the backend ({@link RateLimiterRegistry#acquire}, on the registry's one timer), so a
 * backend holds no thread and no timer of its own. Beside it, for operators rather than calls: {@link #inspect} (a
 * key's quota, spending nothing) and {@link #reset} (the quota given back). Permits are checked against the policy
 * once, by whoever enters the stack ({@link #tryAcquireAsync} or the registry), never again on the way down.
 *
 * <p>The policy travels with every call rather than being stored once, so a rate or interval changed in
 * configuration takes effect on the next call, with the permits already in use still accounted for.
 *
 * <p>{@code key} is the resolved key (for example a user id); the backend bounds and sanitizes it, so it may come
 * straight from user input.
 */
public interface RateLimiter extends AutoCloseable {

    /**
     * Takes {@code permits} permits for {@code key} if they are available now, else takes nothing. The caller has
     * checked {@code permits} with {@link RateLimitPolicy#checkPermits}. A backend failure completes the stage with a
     * {@link RateLimiterBackendException}, unless a failure policy answered: then the outcome carries the failure.
     */
    CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits);

    /**
     * Decides several limits of one call all-or-nothing: the permits are taken on every limit if every limit has
     * them now, else on none. The outcomes are in the order of {@code requests}, each the decision its limit took on
     * its own state; the call is allowed when every outcome is, and when one is not, no permit was spent on any limit
     * (an outcome that says allowed in a refused group spent nothing either). The caller has checked every request's
     * permits.
     *
     * <p>The in-process and single-server Redis backends decide a group atomically. This default, for a backend that
     * cannot, decides the limits one by one in order and stops at the first refusal, leaving the permits granted by
     * the limits before it spent; the outcomes of the limits after it are missing (the list is shorter).
     */
    default CompletionStage<List<BackendOutcome>> decideAll(List<RateLimitRequest> requests) {
        return decideInOrder(this, requests);
    }

    /** {@link #decideAll}'s fallback: one limit after the other, stopping at the first refusal or failure. */
    static CompletionStage<List<BackendOutcome>> decideInOrder(RateLimiter limiter, List<RateLimitRequest> requests) {
        CompletionStage<List<BackendOutcome>> chain = CompletableFuture.completedFuture(new ArrayList<>());
        for (RateLimitRequest request : requests) {
            chain = chain.thenCompose(outcomes -> {
                if (!outcomes.isEmpty() && !outcomes.get(outcomes.size() - 1).decision().allowed()) {
                    return CompletableFuture.completedFuture(outcomes);
                }
                return limiter.decide(request.policy(), request.key(), request.permits()).thenApply(outcome -> {
                    outcomes.add(outcome);
                    return outcomes;
                });
            });
        }
        return chain.thenApply(List::copyOf);
    }

    /**
     * One decision in two steps, for a layer that watches the store's health ({@link FailoverRateLimiter}): the
     * refusal this backend would answer for exactly this request without asking its store (a remembered refusal),
     * else the round trip that decides it. Lets that layer answer remembered refusals without counting them as proof
     * that the store is up, while what both steps need (the request's name in the store, the remembered refusals)
     * is worked out once. The caller has checked the permits. The default remembers nothing and decides with
     * {@link #decide}.
     */
    default Prepared prepare(RateLimitPolicy policy, String key, long permits) {
        return new Prepared(null, () -> decide(policy, key, permits));
    }

    /**
     * A decision {@link #prepare prepared}: the remembered refusal, or {@code null} when only {@code roundTrip}
     * (which asks the store, as {@link #decide} would) can decide.
     */
    record Prepared(Decision remembered, Supplier<CompletionStage<BackendOutcome>> roundTrip) {
    }

    /**
     * What is left of {@code key}'s quota now, without spending a permit or writing anything: the counts, their
     * expiry and any remembered refusal stay as they were. Asks the store itself (never a remembered refusal), so it
     * shows what the next request will find. A backend failure fails the stage with a
     * {@link RateLimiterBackendException}; no failure policy answers in the store's place, since an invented quota
     * would mislead the operator reading it.
     *
     * <p>The default fails with {@link UnsupportedOperationException}, so that a backend written before this method
     * existed still compiles and says what it lacks; Guard's backends all implement it.
     */
    default CompletionStage<Quota> inspect(RateLimitPolicy policy, String key) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("rate-limit backend "
                + backendName() + " (" + getClass().getName() + ") cannot inspect a quota"));
    }

    /**
     * Gives {@code key} its whole quota back (unblocks a user): forgets every permit in use under the policy's name,
     * whatever the algorithm, and every refusal remembered for it, on every instance that shares the store (see the
     * backend for how soon). A backend failure fails the stage with a {@link RateLimiterBackendException}.
     *
     * <p>The default fails with {@link UnsupportedOperationException}, as {@link #inspect} does.
     */
    default CompletionStage<Void> reset(RateLimitPolicy policy, String key) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("rate-limit backend "
                + backendName() + " (" + getClass().getName() + ") cannot reset a quota"));
    }

    /**
     * Charges {@code key} the permits a call consumed beyond what it took when admitted, known only once the call
     * returned (tokens of a language model, rows, bytes), or gives them back when {@code permits} is negative:
     * unconditionally, atomically, and whatever is left, so a TOKEN_BUCKET's balance may go into debt, and every
     * request is then refused until the refill has paid the debt back (its {@code retryAfter} says when). A refund
     * never makes the bucket fuller than full. The caller has bounded {@code permits} with
     * {@link RateLimitPolicy#checkCharge}. Completes with the quota after the charge ({@link Quota#debt()} set); a
     * backend failure fails the stage with a {@link RateLimiterBackendException}.
     *
     * <p>The default fails with {@link UnsupportedOperationException}, as {@link #inspect} does.
     */
    default CompletionStage<Quota> charge(RateLimitPolicy policy, String key, long permits) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("rate-limit backend "
                + backendName() + " (" + getClass().getName() + ") cannot charge a cost after the call"));
    }

    /**
     * {@link #decide} for callers outside the stack: checks the permits, and fails the stage when the backend could
     * not decide and no failure policy answered.
     *
     * @throws IllegalArgumentException if {@code permits} is below 1 or above the policy's rate or burst
     */
    default CompletionStage<Decision> tryAcquireAsync(RateLimitPolicy policy, String key, long permits) {
        policy.checkPermits(permits);
        try {
            return decide(policy, key, permits).thenApply(BackendOutcome::decision);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The blocking form of {@link #tryAcquireAsync}.
     *
     * @throws IllegalArgumentException if {@code permits} is out of range
     * @throws RateLimiterBackendException if the backend cannot decide (and no failure policy answered)
     */
    default Decision tryAcquire(RateLimitPolicy policy, String key, long permits) {
        try {
            return tryAcquireAsync(policy, key, permits).toCompletableFuture().join();
        } catch (CompletionException e) {
            throw Failures.rethrowable(e);
        }
    }

    /** The backend's own view of its health, if it keeps one (the failover does); else the caller's view counts. */
    default Optional<BackendHealth> health() {
        return Optional.empty();
    }

    /**
     * How many replies the backend has delivered, for a remote backend that can tell; {@link BackendPulse#NONE} for
     * one that cannot (then every timeout is the backend's) or that never waits (in process).
     */
    default BackendPulse pulse() {
        return BackendPulse.NONE;
    }

    /** A short name for dashboards: {@code redis}, {@code local}. */
    String backendName();

    /** Releases what the backend holds (connections it opened, caches); never a Redis client it was given. */
    @Override
    void close();
}
