package io.guard.ratelimit.redis;

import io.guard.ratelimit.Failures;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.ratelimit.ReplicaShortfallException;
import io.guard.ratelimit.ReplicaWait;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The two scripts of a {@link RedisRateLimiter} ({@code decide.lua}, {@code reset.lua}) put together with their keys
 * and arguments and run, every failure turned into a {@link RateLimiterBackendException} that names the limits and
 * what Redis could not do, never the user's key. Cancelling a returned stage drops the call if it has not been sent.
 */
final class LimitScripts {

    private final ScriptRunner runner;
    private final LimitEntries entries;
    private final LuaScript decide = DecideScript.load();
    private final LuaScript reset = LuaScript.fromResource("reset");

    LimitScripts(ScriptRunner runner, LimitEntries entries) {
        this.runner = runner;
        this.entries = entries;
    }

    /** Every script, for loading them into Redis ahead of use. */
    List<LuaScript> all() {
        return List.of(decide, reset);
    }

    /**
     * Runs the policy's algorithm for the limit {@code tag}; {@code peek} adds the flag that makes it write nothing.
     * The reply is {@code read} in the same stage that checks it, so a decision chains one stage, not two.
     */
    <T> CompletableFuture<T> decide(RateLimitPolicy policy, String tag, long permits, long sent, boolean peek,
                                    Function<List<Object>, T> read) {
        LimitEntries.Entry entry = entries.entry(policy, tag, permits, sent, peek);
        return run(decide, entry.keys, entry.args, policy::name, peek ? "inspect the quota" : "decide",
                peek ? ReplicaWait.NONE : policy.replicaWait(), read);
    }

    /**
     * Charges the TOKEN_BUCKET limit {@code tag} {@code permits} after the call, in the decision script (so a charge
     * is pipelined and batched like a decision); the reply is read as a peek's.
     */
    <T> CompletableFuture<T> charge(RateLimitPolicy policy, String tag, long permits, long sent,
                                    Function<List<Object>, T> read) {
        LimitEntries.Entry entry = entries.chargeEntry(policy, tag, permits, sent);
        return run(decide, entry.keys, entry.args, policy::name, "charge the cost", ReplicaWait.NONE, read);
    }

    /** Decides {@code limits}, named by {@code names}, all-or-nothing in one run (see {@code decide.lua}). */
    CompletableFuture<List<Object>> decideAll(List<DecideScript.Limit> limits, Supplier<String> names,
                                              ReplicaWait wait) {
        return run(decide, DecideScript.keys(limits), DecideScript.args(limits), names, "decide", wait,
                Function.identity());
    }

    /** Deletes {@code keys} of the limit {@code tag} and tells every instance, on the reset channel, to forget it. */
    CompletableFuture<List<Object>> reset(RateLimitPolicy policy, String tag, List<String> keys) {
        return run(reset, keys, List.of(entries.resetChannel(), tag), policy::name, "reset", ReplicaWait.NONE,
                Function.identity());
    }

    /**
     * Runs {@code script}, then waits for {@code wait}'s replicas; a failure fails the stage with a
     * {@link RateLimiterBackendException} saying that Redis could not {@code doing} for {@code limits} (named only
     * then). Fewer replicas than asked: a reply that admits anything fails the same way (the failure policy answers
     * it; the spend stays on the primary), a refusal stands. The stage completes with the reply as {@code read}
     * reads it. Cancelling the stage drops the call if it has not been sent yet.
     */
    private <T> CompletableFuture<T> run(LuaScript script, List<String> keys, List<String> args,
                                         Supplier<String> limits, String doing, ReplicaWait wait,
                                         Function<List<Object>, T> read) {
        CompletableFuture<List<Object>> sentScript = runner.run(script, keys, args, wait).toCompletableFuture();
        return cancelling(sentScript, sentScript.handle((values, error) -> {
            if (error != null) {
                Throwable cause = Failures.unwrap(error);
                if (cause instanceof ReplicaShortfall shortfall) {
                    if (!DecideScript.admitsAny(shortfall.reply())) {
                        return read.apply(shortfall.reply());
                    }
                    throw new ReplicaShortfallException("rate limiter '" + limits.get() + "': the spend was "
                            + shortfall.getMessage() + ", so it could be lost in a failover", shortfall);
                }
                // The class name only: Redisson's messages quote the command's arguments, i.e. the user's key.
                throw new RateLimiterBackendException("rate limiter '" + limits.get() + "': Redis could not " + doing
                        + " (" + cause.getClass().getSimpleName() + ")", cause);
            }
            return read.apply(values);
        }));
    }

    /**
     * {@code dependent}, whose cancellation (a caller that stopped waiting, see {@code FailoverRateLimiter}) reaches
     * {@code source} and from there the script call, which is then never sent if it has not been yet.
     */
    static <T> CompletableFuture<T> cancelling(CompletableFuture<?> source, CompletableFuture<T> dependent) {
        dependent.whenComplete((value, error) -> {
            if (dependent.isCancelled()) {
                source.cancel(false);
            }
        });
        return dependent;
    }
}
