package io.guard.ratelimit;

import java.time.Duration;
import java.util.Objects;

/**
 * What is left of one key's quota right now, read without spending a permit ({@link RateLimiter#inspect}): what an
 * operator or a support tool needs to tell whether a user is blocked, for how long, and when the quota is whole again.
 * It is the {@link Decision} a request for one permit would get, minus the spending.
 *
 * @param limit      the policy's rate, as in the {@code RateLimit-Policy} field
 * @param remaining  permits available now (never negative)
 * @param retryAfter time until one permit is available; zero when {@code remaining} is at least 1
 * @param resetAfter time until the quota is whole again; zero when nothing is in use
 * @param debt       permits charged beyond the quota by costs known after their calls ({@link RateLimiter#charge}):
 *                   while positive, {@code remaining} is 0 and {@code retryAfter} is when the refill has paid it back
 *                   and one permit is free again; 0 otherwise (and always for a limit that charges no cost)
 */
public record Quota(long limit, long remaining, Duration retryAfter, Duration resetAfter, long debt) {

    public Quota {
        Objects.requireNonNull(retryAfter, "retryAfter");
        Objects.requireNonNull(resetAfter, "resetAfter");
        if (remaining < 0 || debt < 0) {
            throw new IllegalArgumentException("remaining and debt must not be negative but were " + remaining + " and "
                    + debt);
        }
    }

    /** A quota without debt. */
    public Quota(long limit, long remaining, Duration retryAfter, Duration resetAfter) {
        this(limit, remaining, retryAfter, resetAfter, 0);
    }

    /**
     * The quota a one-permit request saw, with the key's signed {@code balance} in permits: negative is a debt.
     */
    public static Quota of(Decision oneCall, long balance) {
        return new Quota(oneCall.limit(), oneCall.remaining(), oneCall.retryAfter(), oneCall.resetAfter(),
                Math.max(0, -balance));
    }

    /** The quota a one-permit request saw, from the decision it would have got had it been taken. */
    public static Quota of(Decision oneCall) {
        return new Quota(oneCall.limit(), oneCall.remaining(), oneCall.retryAfter(), oneCall.resetAfter());
    }
}
