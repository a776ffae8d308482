package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.Failures;
import io.guard.ratelimit.RateLimitKeys;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.lease.LeaseGrant;
import io.guard.ratelimit.lease.LeaseSize;
import io.guard.ratelimit.lease.LeaseSource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * A {@link RedisRateLimiter}'s leases: {@code lease.lua} takes up to N permits of a limit's quota in one atomic script
 * on Redis' clock (running the algorithm's own code, so a lease is exactly a decision for N permits, or for what is
 * left when fewer are), after giving back what the previous lease left unused; and gives back alone. Resets heard on
 * the limiter's reset channel revoke the leases of the reset limit.
 */
final class RedisLeases implements LeaseSource {

    /** Values in a reply: granted, remaining, retryAfter, resetAfter, now, given back. */
    private static final int REPLY = 6;

    private final ScriptRunner runner;
    private final LimitEntries entries;
    private final ResetListener resets;
    private final Clock clock;
    private final LuaScript script = DecideScript.withAlgorithms("lease");

    RedisLeases(ScriptRunner runner, LimitEntries entries, ResetListener resets, Clock clock) {
        this.runner = runner;
        this.entries = entries;
        this.resets = resets;
        this.clock = clock;
    }

    /** The lease script, for loading it into Redis ahead of use. */
    LuaScript script() {
        return script;
    }

    @Override
    public CompletionStage<LeaseGrant> take(RateLimitPolicy policy, String key, long want, long need,
                                            Unused previous) {
        return run(policy, key, want, need, previous, "take a lease").thenApply(reply -> {
            Decision decision = new Decision(reply[0] >= need, reply[1], Duration.of(reply[2], ChronoUnit.MICROS),
                    Duration.of(reply[3], ChronoUnit.MICROS), policy.rate());
            Duration usable = policy.algorithm() == Algorithm.FIXED_WINDOW ? decision.resetAfter()
                    : LeaseGrant.UNBOUNDED;
            return new LeaseGrant(reply[0], decision, reply[4], usable, reply[5]);
        });
    }

    @Override
    public CompletionStage<Long> giveBack(RateLimitPolicy policy, String key, Unused unused) {
        return run(policy, key, 0, 1, unused, "give back a lease").thenApply(reply -> reply[5]);
    }

    @Override
    public void onRevoke(Consumer<String> revoked) {
        resets.alsoTell(revoked);
    }

    private CompletionStage<long[]> run(RateLimitPolicy policy, String key, long want, long need, Unused previous,
                                        String doing) {
        if (!LeaseSize.supports(policy.algorithm())) {
            throw new IllegalArgumentException("rate limiter '" + policy.name() + "': " + policy.algorithm()
                    + " cannot be leased");
        }
        String tag = RateLimitKeys.hashTag(policy.name(), key);
        resets.subscription();
        long sent = policy.timeSource() == TimeSource.CLIENT
                ? ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant()) : 0;
        DecideScript.Limit limit = entries.limit(policy, tag, need, sent, true);
        List<String> args = new ArrayList<>(4 + limit.args().size());
        args.add(policy.algorithm().name().toLowerCase(java.util.Locale.ROOT));
        args.add(Long.toString(want));
        args.add(Long.toString(previous.permits()));
        args.add(Long.toString(previous.takenAt()));
        args.addAll(limit.args());
        return runner.run(script, limit.keys(), args, want == 0 ? io.guard.ratelimit.ReplicaWait.NONE
                : policy.replicaWait()).handle((values, error) -> {
            if (error != null) {
                Throwable cause = Failures.unwrap(error);
                // The class name only: the clients' messages quote the command's arguments, i.e. the user's key.
                throw new RateLimiterBackendException("rate limiter '" + policy.name() + "': Redis could not "
                        + doing + " (" + cause.getClass().getSimpleName() + ")", cause);
            }
            if (values == null || values.size() != REPLY) {
                throw new RateLimiterBackendException("rate limiter '" + policy.name() + "': unexpected lease reply "
                        + values, null);
            }
            return DecideScript.numbers(values, 0, REPLY);
        });
    }
}
