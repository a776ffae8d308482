package io.guard.spring.ratelimit;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.ReplicaWait;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.lease.LeaseSize;

import java.time.Duration;

/**
 * The settings of one rate limit from one source (the annotation, an instance's properties, the defaults, an
 * operator's override); a null field means "this source does not say". Sources are layered with {@link #orElse}:
 * instance properties over the annotation over the defaults, an override over the policy in force.
 *
 * <p>The burst rule lives here and only here: a burst left unset is the rate ({@link #toPolicy}), so it follows
 * whatever rate the layers end with ({@link #of}); a burst set by a source stays under a new rate from a layer above;
 * a tier never takes its limit's burst ({@link #forTier}).
 *
 * @param rate             permits per interval
 * @param interval         the window or refill period
 * @param algorithm        how permits are counted
 * @param burst            TOKEN_BUCKET only: the most permits at once
 * @param scope            one quota for the cluster or one per instance
 * @param timeSource       whose clock counts
 * @param onBackendFailure what to do when the backend cannot decide
 * @param timeout          how long a call may wait for permits; zero refuses at once
 * @param message          the {@code detail} of a 429 answer
  * @param httpHeaders      whether decisions go into the HTTP answer's RateLimit fields; null: only on web handlers
  * @param shadow           whether the limit only decides and records, and never refuses
  * @param waitForReplicas  replicas that must have a spend before an admission is granted (Redis WAIT); 0 for none
  * @param waitForReplicasTimeout the longest the WAIT blocks
  * @param lease            leased decisions: {@code off}, a number of permits or {@code auto} (see {@link LeaseSize})
  */
public record LimitSettings(Long rate, Duration interval, Algorithm algorithm, Long burst, Scope scope,
                            TimeSource timeSource, BackendFailurePolicy onBackendFailure, Duration timeout,
                            String message, Boolean httpHeaders, Boolean shadow, Integer waitForReplicas,
                            Duration waitForReplicasTimeout, String lease) {

    /** A source that says nothing. */
    public static final LimitSettings NONE = new LimitSettings(null, null, null, null, null, null, null, null, null,
            null, null, null, null, null);

    /** How long a WAIT blocks when {@code wait-for-replicas} is set and its timeout is not. */
    static final Duration DEFAULT_WAIT_FOR_REPLICAS_TIMEOUT = Duration.ofMillis(100);

    /**
     * The settings of a policy already in force, as the layer under an operator's override ({@link LimitOverride}): a
     * burst equal to the rate is left unset, so that it follows a rate the override changes; a burst of its own stays.
     */
    public static LimitSettings of(RateLimitPolicy policy) {
        ReplicaWait wait = policy.replicaWait();
        return new LimitSettings(policy.rate(), policy.interval(), policy.algorithm(),
                policy.burst() == policy.rate() ? null : policy.burst(), policy.scope(), policy.timeSource(),
                policy.onBackendFailure(), null, null, null, null, wait.replicas(), wait.timeout(), null);
    }

    /**
     * The settings of one of this limit's tiers: {@code tier}'s own, then this limit's, except its burst. A tier's
     * burst is its own (unset, the tier's rate), never the limit's, which was sized for another rate.
     */
    public LimitSettings forTier(LimitSettings tier) {
        return tier.orElse(new LimitSettings(rate, interval, algorithm, null, scope, timeSource, onBackendFailure,
                null, null, null, null, waitForReplicas, waitForReplicasTimeout, lease));
    }

    /**
     * The policy these settings describe, under {@code name}; a burst left unset is the rate. The one place settings
     * become a policy, for a limit, each of its tiers and an override alike. An explicit burst of 0 is refused rather
     * than read as unset (the core's 0): Spring Cloud Gateway's {@code burstCapacity: 0}, which a migration maps onto
     * it, refuses every request, and no Guard limit does that.
     *
     * @throws IllegalArgumentException when the settings make no valid policy
     * @throws NullPointerException     when no rate is set (callers report that first, naming the property)
     */
    public RateLimitPolicy toPolicy(String name) {
        if (burst != null && burst == 0) {
            throw new IllegalArgumentException("rate limiter '" + name + "': burst must be at least 1 but was 0 (a "
                    + "bucket that holds nothing; Spring Cloud Gateway's burstCapacity 0 refuses every request, which "
                    + "no Guard limit does): leave burst out for a bucket as large as the rate");
        }
        return new RateLimitPolicy(name, algorithm, rate, interval, burst == null ? 0 : burst, scope, timeSource,
                onBackendFailure, replicaWait());
    }

    /** {@link ReplicaWait#NONE} unless {@code waitForReplicas} is positive. */
    public ReplicaWait replicaWait() {
        if (waitForReplicas == null || waitForReplicas == 0) {
            return ReplicaWait.NONE;
        }
        return new ReplicaWait(waitForReplicas,
                waitForReplicasTimeout != null ? waitForReplicasTimeout : DEFAULT_WAIT_FOR_REPLICAS_TIMEOUT);
    }

    /** Each field from this source, or from {@code fallback} where this one does not say. */
    public LimitSettings orElse(LimitSettings fallback) {
        return new LimitSettings(
                rate != null ? rate : fallback.rate,
                interval != null ? interval : fallback.interval,
                algorithm != null ? algorithm : fallback.algorithm,
                burst != null ? burst : fallback.burst,
                scope != null ? scope : fallback.scope,
                timeSource != null ? timeSource : fallback.timeSource,
                onBackendFailure != null ? onBackendFailure : fallback.onBackendFailure,
                timeout != null ? timeout : fallback.timeout,
                message != null && !message.isEmpty() ? message : fallback.message,
                httpHeaders != null ? httpHeaders : fallback.httpHeaders,
                shadow != null ? shadow : fallback.shadow,
                waitForReplicas != null ? waitForReplicas : fallback.waitForReplicas,
                waitForReplicasTimeout != null ? waitForReplicasTimeout : fallback.waitForReplicasTimeout,
                lease != null && !lease.isBlank() ? lease : fallback.lease);
    }

    /**
     * The lease size these settings ask for; {@link LeaseSize#OFF} when they do not say.
     *
     * @throws IllegalArgumentException naming the value when it is not {@code off}, {@code auto} or a number
     */
    public LeaseSize leaseSize() {
        return lease == null ? LeaseSize.OFF : LeaseSize.parse(lease);
    }
}
