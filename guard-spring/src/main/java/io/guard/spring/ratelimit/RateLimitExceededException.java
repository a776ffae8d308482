package io.guard.spring.ratelimit;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.refusal.Refusal;
import io.guard.refusal.RefusalKind;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@code @RateLimit} refused a call. It names the limit that refused and carries its {@link Decision}, which is
 * what HTTP answers are built from ({@code 429}, {@code Retry-After}, the {@code RateLimit} fields); callers that
 * are not HTTP handlers can use {@link Decision#retryAfter()} directly.
 *
 * <p>When a method carries several limits, they are decided all-or-nothing: a refused call spends no permit on any
 * of them (on a Redis Cluster, where the limits live in different slots, the limits before the refusing one keep
 * what they granted; see the reliability guide). The exception names the refusing limit whose wait is longest.
 */
public class RateLimitExceededException extends RuntimeException implements Refusal {

    private static final long serialVersionUID = 1L;

    private final transient RateLimitPolicy policy;
    private final transient Decision decision;

    public RateLimitExceededException(RateLimitPolicy policy, Decision decision, String message) {
        super(message, null, false, false);
        this.policy = Objects.requireNonNull(policy, "policy");
        this.decision = Objects.requireNonNull(decision, "decision");
    }

    /** The name of the limit that refused. */
    public String policyName() {
        return policy.name();
    }

    /** The policy of the limit that refused. */
    public RateLimitPolicy policy() {
        return policy;
    }

    /** The refusal: how long to wait ({@link Decision#retryAfter()}), the limit, the reset time. */
    public Decision decision() {
        return decision;
    }

    @Override
    public RefusalKind refusalKind() {
        return RefusalKind.RATE_LIMITED;
    }

    /** The decision's {@link Decision#retryAfter()}. */
    @Override
    public Optional<Duration> retryAfterHint() {
        return Optional.of(decision.retryAfter());
    }

    /** The {@link #policyName()}. */
    @Override
    public String refusedBy() {
        return policy.name();
    }
}
