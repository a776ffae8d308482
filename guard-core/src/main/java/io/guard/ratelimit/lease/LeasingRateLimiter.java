package io.guard.ratelimit.lease;

import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.BackendPulse;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitKeys;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimitRequest;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.lease.LeaseSource.Unused;
import io.guard.time.CallbackTimer;
import io.guard.time.GuardClock;
import io.guard.time.Scheduler;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Decides hot limits without a round trip per request, for the limits configured with a lease: the instance takes
 * several permits of the shared quota at once from a {@link LeaseSource} (one atomic script on Redis) and admits
 * locally until they are spent, the lease expires (a lifetime of a tenth of the interval, 1 s at most) or the limit is
 * reset or changed. Leased permits are spent permits, so the fleet never takes more from the quota than exact
 * decisions would; what leasing costs is under-admission (permits one instance holds while another is refused),
 * bounded by one lease per instance and key for one lifetime, and given back when a lease expires, the next one is
 * taken, the limit changes or the instance stops. Every other limit, and every call that cannot use a lease (the
 * size comes out at 1, a refusal, another caller already fetching the key's next lease), is decided exactly by the
 * backend below.
 *
 * <p>It sits where a backend sits, below the failover: a lease in hand answers like a remembered refusal does
 * ({@link #prepare}, no round trip, so it neither hides an outage nor closes the breaker), and taking a lease is a
 * round trip the failover times and guards like a decision. During an outage a lease in hand is spent until it
 * expires; after that the limit's failure policy answers, as for exact limits.
 */
public final class LeasingRateLimiter implements RateLimiter {

    /** A lease lives at most this long (and at most a tenth of its limit's interval). */
    public static final Duration DEFAULT_MAX_LIFETIME = Duration.ofSeconds(1);
    /** (limit, key) pairs leased for at once unless told otherwise; more are decided exactly. */
    public static final int DEFAULT_MAX_KEYS = 10_000;
    /** A lease lives at most 1 / {@value} of its limit's interval. */
    static final long LIFETIME_SHARE = 10;
    private static final long CLOSE_WAIT_MILLIS = 2_000;

    private final RateLimiter exact;
    private final LeaseSource source;
    private final Function<String, LeaseSize> sizes;
    private final GuardClock clock;
    private final long maxLifetimeNanos;
    private final LeaseSlots slots;
    private final LeaseReturns returns;
    private final CallbackTimer ownTimer;

    /**
     * @param exact     decides every call no lease answers (usually the {@code RedisRateLimiter} the source belongs to)
     * @param source    takes and gives back leases
     * @param sizes     the lease size of each limit by name ({@link LeaseSize#OFF}, or {@code null}, for exact)
     * @param scheduler runs each lease's expiry, which gives its unused permits back; {@code null}: a timer thread of
     *                  its own, started on first use and stopped by {@link #close()}
     */
    public LeasingRateLimiter(RateLimiter exact, LeaseSource source, Function<String, LeaseSize> sizes,
                              Scheduler scheduler) {
        this(exact, source, sizes, scheduler, GuardClock.system(), DEFAULT_MAX_LIFETIME, DEFAULT_MAX_KEYS);
    }

    /**
     * @param clock       times the leases ({@link GuardClock#nanoTime()}); a test passes a {@code ManualClock}
     * @param maxLifetime the longest a lease lives
     * @param maxKeys     the most (limit, key) pairs leased for at once
     */
    public LeasingRateLimiter(RateLimiter exact, LeaseSource source, Function<String, LeaseSize> sizes,
                              Scheduler scheduler, GuardClock clock, Duration maxLifetime, int maxKeys) {
        this.exact = Objects.requireNonNull(exact, "exact");
        this.source = Objects.requireNonNull(source, "source");
        this.sizes = Objects.requireNonNull(sizes, "sizes");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (maxLifetime == null || maxLifetime.isNegative() || maxLifetime.isZero()) {
            throw new IllegalArgumentException("lease lifetime must be positive but was " + maxLifetime);
        }
        this.maxLifetimeNanos = maxLifetime.toNanos();
        this.slots = new LeaseSlots(maxKeys, maxLifetimeNanos);
        this.ownTimer = scheduler == null ? new CallbackTimer("guard-lease-expiry", "guard-lease-return", 1) : null;
        this.returns = new LeaseReturns(source, scheduler == null ? ownTimer : scheduler, clock);
        source.onRevoke(this::revoke);
    }

    /** How long a lease of {@code policy} lives: a tenth of its interval, at most {@code maxLifetime}. */
    long lifetimeNanos(RateLimitPolicy policy) {
        return Math.max(1, Math.min(maxLifetimeNanos, policy.interval().toNanos() / LIFETIME_SHARE));
    }

    @Override
    public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
        return run(prepare(policy, key, permits));
    }

    /** A lease in hand answers at once; a call needing the next lease takes it in its round trip; others: exact. */
    @Override
    public Prepared prepare(RateLimitPolicy policy, String key, long permits) {
        LeaseSize size = sizes.apply(policy.name());
        if (size == null || size.off() || !LeaseSize.supports(policy.algorithm())) {
            return exact.prepare(policy, key, permits);
        }
        long now = clock.nanoTime();
        LeaseSlot slot = slots.find(policy.name(), key, lifetimeNanos(policy), now);
        if (slot == null) {
            return exact.prepare(policy, key, permits);
        }
        slot.lastUse = now;
        slot.demand.record(permits, now);
        Lease lease = slot.lease.get();
        Decision local = Lease.answer(lease, policy, permits, now);
        if (local != null) {
            return new Prepared(local, null);
        }
        long want = LeaseSizer.size(size, policy, slot.demand.perPeriod(), slot.quotaLeft);
        if (slot.refusedAt(now) || (want <= permits && lease == null)) {
            return exactWatching(slot, policy, key, permits);
        }
        return new Prepared(null, () -> refresh(slot, policy, key, permits, want));
    }

    /** The exact decision, noting the quota it leaves for the next lease's size. */
    private Prepared exactWatching(LeaseSlot slot, RateLimitPolicy policy, String key, long permits) {
        Prepared prepared = exact.prepare(policy, key, permits);
        if (prepared.remembered() != null) {
            return prepared;
        }
        return new Prepared(null, () -> prepared.roundTrip().get().thenApply(outcome -> {
            if (outcome.backendError() == null) {
                slot.quotaLeft = outcome.decision().remaining();
            }
            return outcome;
        }));
    }

    private static CompletionStage<BackendOutcome> run(Prepared prepared) {
        return prepared.remembered() != null
                ? CompletableFuture.completedFuture(BackendOutcome.decided(prepared.remembered()))
                : prepared.roundTrip().get();
    }

    /**
     * Closes the lease in hand (spent, expired, changed or too small) and takes the next one, giving the closed one's
     * unused permits back in the same script; decides exactly when another caller is already at it for this key.
     */
    private CompletionStage<BackendOutcome> refresh(LeaseSlot slot, RateLimitPolicy policy, String key, long permits,
                                                    long want) {
        if (!slot.hold()) {
            // Another call is taking the key's next lease: spend from it when it comes, else decide exactly.
            CompletableFuture<?> taking = slot.taking;
            if (taking == null || taking.isDone()) {
                return run(exactWatching(slot, policy, key, permits));
            }
            return taking.handle((grant, error) -> null).thenCompose(ignored -> {
                Decision local = Lease.answer(slot.lease.get(), policy, permits, clock.nanoTime());
                return local != null ? CompletableFuture.completedFuture(BackendOutcome.decided(local))
                        : run(exactWatching(slot, policy, key, permits));
            });
        }
        Unused previous = Unused.NONE;
        Lease old = slot.lease.getAndSet(null);
        if (old != null) {
            long unused = old.close();
            if (old.policy.equals(policy)) {
                previous = new Unused(unused, old.takenAt);
            } else {
                returns.dropChanged(old, unused);
            }
        }
        if (want <= permits) {
            returns.giveBack(slot, old, previous);
            return run(exactWatching(slot, policy, key, permits));
        }
        return take(slot, policy, key, permits, want, previous);
    }

    private CompletionStage<BackendOutcome> take(LeaseSlot slot, RateLimitPolicy policy, String key, long permits,
                                                 long want, Unused previous) {
        long sent = clock.nanoTime();
        long generation = slot.generation.get();
        CompletionStage<LeaseGrant> grant;
        try {
            grant = source.take(policy, key, want, permits, previous);
        } catch (RuntimeException e) {
            grant = CompletableFuture.failedFuture(e);
        }
        CompletableFuture<BackendOutcome> answered = grant.toCompletableFuture().handle((answer, error) -> {
            try {
                if (error != null) {
                    returns.lost(policy, previous.permits());
                    throw error instanceof CompletionException completion ? completion : new CompletionException(error);
                }
                return BackendOutcome.decided(granted(slot, policy, key, permits, answer, sent, generation, previous));
            } finally {
                slot.release();
            }
        });
        slot.taking = answered;
        return answered;
    }

    /** Settles the closed lease, installs what a take granted beyond the request as the slot's lease, answers it. */
    private Decision granted(LeaseSlot slot, RateLimitPolicy policy, String key, long permits, LeaseGrant grant,
                             long sent, long generation, Unused previous) {
        returns.settled(policy, previous, grant.givenBack());
        Lease lease = slot.granted(policy, key, permits, grant, sent, Math.min(lifetimeNanos(policy),
                grant.usableFor().toNanos()));
        if (grant.granted() >= permits) {
            returns.taken(policy);
        }
        if (lease != null) {
            returns.install(slot, lease, generation);
        }
        Decision decision = grant.decision();
        long left = lease == null ? 0 : grant.granted() - permits;
        return grant.granted() < permits ? decision
                : new Decision(true, decision.remaining() + left, Duration.ZERO, decision.resetAfter(), decision.limit());
    }

    /**
     * Drops the leases held for the limit of hash tag {@code tag} (every limit for {@code null}) without giving them
     * back: the quota they came from was reset. A take in flight installs nothing.
     */
    void revoke(String tag) {
        returns.revoke(slots, tag);
    }

    /** Exact: several limits of one call (all-or-nothing), a quota read, a cost after the call (never leased). */
    @Override
    public CompletionStage<List<BackendOutcome>> decideAll(List<RateLimitRequest> requests) {
        return exact.decideAll(requests);
    }

    @Override
    public CompletionStage<Quota> inspect(RateLimitPolicy policy, String key) {
        return exact.inspect(policy, key);
    }

    @Override
    public CompletionStage<Quota> charge(RateLimitPolicy policy, String key, long permits) {
        return exact.charge(policy, key, permits);
    }

    /** Drops this instance's leases for the key, then resets it in the store (which revokes the others' leases). */
    @Override
    public CompletionStage<Void> reset(RateLimitPolicy policy, String key) {
        revoke(RateLimitKeys.hashTag(policy.name(), key));
        return exact.reset(policy, key);
    }

    /** Leases taken and given back so far, and the permits held now. */
    public LeaseStats stats() {
        return returns.stats(slots);
    }

    /** {@link #stats()} of limit {@code name} alone; its {@code keys} are the keys holding one of its leases now. */
    public LeaseStats stats(String name) {
        return returns.stats(slots, name);
    }

    /** Tells {@code listener} the name of each limit that has taken a lease here: now, and as each first does. */
    public void onLimitLeased(Consumer<String> listener) {
        returns.onLimitLeased(listener);
    }

    @Override
    public BackendPulse pulse() {
        return exact.pulse();
    }

    @Override
    public String backendName() {
        return exact.backendName();
    }

    /** Gives every lease in hand back (waiting up to 2 s for the store), then closes the exact backend. */
    @Override
    public void close() {
        try {
            returns.giveBackAll(slots, CLOSE_WAIT_MILLIS);
        } finally {
            if (ownTimer != null) {
                ownTimer.close();
            }
            exact.close();
        }
    }
}
