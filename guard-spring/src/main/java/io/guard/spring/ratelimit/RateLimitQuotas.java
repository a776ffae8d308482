package io.guard.spring.ratelimit;

import io.guard.ratelimit.Failures;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.ratelimit.RateLimiterRegistry;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * One key's quota of a named limit, read without spending a permit, and given back in full: what a support tool or
 * an admin page needs to answer "why is this user refused, and until when?" and to unblock that user. Inject it
 * wherever a {@code @RateLimit} application needs it; the {@code guard} actuator endpoint's quota operations use the
 * same calls.
 *
 * <p>A limit is named as in {@code @RateLimit(name = ...)}, and the policy is the one Guard registered under that
 * name (annotation, {@code guard.rate-limit.*} properties), so the answer is the one the next call will meet. The
 * key is the resolved key, as the key expression yields it for a call (for example a user id); a limit without a
 * key expression counts every call under the key {@code global}.
 *
 * <p>Works on every backend: on Redis a read-only run of the limit's own script, and a reset that reaches every
 * instance sharing the Redis (see docs/actuator.md for how soon); in process the same on this JVM's counts. Unlike
 * a decision, neither is ever answered by a backend failure policy: with Redis down both fail with
 * {@link RateLimiterBackendException}, since an invented quota would mislead. Keys are never logged.
 */
public final class RateLimitQuotas {

    private final RateLimiterRegistry limiters;

    public RateLimitQuotas(RateLimiterRegistry limiters) {
        this.limiters = Objects.requireNonNull(limiters, "limiters");
    }

    /**
     * What is left of {@code key}'s quota under the limit named {@code limit}: remaining permits, time until one
     * permit is back, time until the quota is whole. Spends nothing and changes nothing.
     *
     * @throws IllegalArgumentException if no limit has that name or the key is blank
     * @throws RateLimiterBackendException if the backend cannot answer (Redis down)
     */
    public Quota inspect(String limit, String key) {
        return join(inspectAsync(limit, key));
    }

    /** {@link #inspect} without blocking; invalid arguments throw at once, a backend failure fails the stage. */
    public CompletionStage<Quota> inspectAsync(String limit, String key) {
        return limiters.inspect(known(limit), checked(limit, key));
    }

    /**
     * Gives {@code key} its whole quota back under the limit named {@code limit}, on every instance sharing the
     * backend; a key with nothing in use is left as it is.
     *
     * @throws IllegalArgumentException if no limit has that name or the key is blank
     * @throws RateLimiterBackendException if the backend cannot answer (Redis down); nothing was reset then
     */
    public void reset(String limit, String key) {
        join(resetAsync(limit, key));
    }

    /** {@link #reset} without blocking; invalid arguments throw at once, a backend failure fails the stage. */
    public CompletionStage<Void> resetAsync(String limit, String key) {
        return limiters.reset(known(limit), checked(limit, key));
    }

    /** The names of the limits Guard knows, sorted. */
    public List<String> limits() {
        return limiters.policies().stream().map(RateLimitPolicy::name).sorted().toList();
    }

    /** Whether a limit has that name. */
    public boolean exists(String limit) {
        return limiters.find(limit).isPresent();
    }

    private String known(String limit) {
        if (!exists(limit)) {
            throw new IllegalArgumentException("No rate limit named '" + limit + "'; limits: " + limits());
        }
        return limit;
    }

    private static String checked(String limit, String key) {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("Rate limit '" + limit + "' needs the key whose quota to read or reset,"
                    + " but it was " + (key == null ? "missing" : "blank") + "; a limit without a key expression"
                    + " counts under the key 'global'");
        }
        return key;
    }

    private static <T> T join(CompletionStage<T> stage) {
        CompletableFuture<T> future = stage.toCompletableFuture();
        try {
            return future.join();
        } catch (CompletionException e) {
            throw Failures.rethrowable(e);
        }
    }
}
