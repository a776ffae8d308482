package io.guard.ratelimit.redis;

import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.BackendPulse;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitKeys;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimitRequest;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.lease.LeaseSource;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * A limit shared by every instance of a service, kept in Redis: each decision is one atomic Lua script (one round
 * trip) that reads the time, expires what no longer counts, decides and records, so no two instances can spend the
 * same permit. Keys are {@code <prefix>{<limiter>:<key>}:<suffix>}: every key of one limit lives in one Redis Cluster
 * hash slot, and each expires by itself once it can no longer matter.
 *
 * <p>A refusal is remembered until its {@code retryAfter}, or 1 s at most (see {@link RefusalCache}), so a key
 * hammered while over its limit is refused without a round trip; {@link #reset} clears a key's quota and the
 * refusals every instance remembers for it.
 *
 * <p>Scripts go to Redis through a {@link ScriptConnection} (Redisson or Lettuce), used as configured; a caller that
 * stops waiting (Guard's {@code FailoverRateLimiter} bounds every decision) cancels the stage {@link #decide}
 * returned, and a call not sent yet is then dropped. Under load, calls that arrive while a round trip is in flight
 * leave together as one pipelined batch (see {@link Pipeline}); every decision is still one atomic script.
 *
 * <p>This class picks the path of each call; the scripts' runs ({@link LimitScripts}), their replies
 * ({@link ScriptReply}), several limits decided together ({@link GroupDecision}), the refusals remembered
 * ({@link RefusalCache}), the subscription to resets ({@link ResetListener}) and the warm-up ({@link WarmUp}) are each
 * a class of their own.
 */
public final class RedisRateLimiter implements RateLimiter {

    /** The name of the throwaway limit and key the warm-up inspects; it writes nothing under them. */
    static final String WARM_UP = "guard-warm-up";

    /** Refusals remembered at once unless told otherwise. */
    public static final int DEFAULT_REFUSAL_CACHE_SIZE = 10_000;

    private final ScriptConnection connection;
    private final Pipeline pipeline;
    private final Clock clock;
    private final LimitEntries entries;
    private final RefusalCache refusals;
    private final LimitScripts scripts;
    private final GroupDecision group;
    /** Listens for resets from the first use on. */
    private final ResetListener resets;
    private final RedisLeases leases;

    /**
     * @param redisson   the client to run scripts with; not closed by {@link #close()}
     * @param clock      read only by {@link TimeSource#CLIENT} policies
     * @param keyPrefix  put before every key, e.g. {@code "orders:guard:"}; must not contain braces
     * @param instanceId tells this instance's keys apart for {@link Scope#PER_INSTANCE} limits
     * @throws IllegalArgumentException if the prefix contains {@code '{'} or {@code '}'} or the instance id is blank
     */
    public RedisRateLimiter(RedissonClient redisson, Clock clock, String keyPrefix, String instanceId) {
        this(redisson, clock, keyPrefix, instanceId, DEFAULT_REFUSAL_CACHE_SIZE);
    }

    /**
     * Like {@link #RedisRateLimiter(RedissonClient, Clock, String, String)}, with the number of refusals remembered
     * in process until their {@code retryAfter}; 0 sends every request to Redis.
     */
    public RedisRateLimiter(RedissonClient redisson, Clock clock, String keyPrefix, String instanceId,
                            int refusalCacheSize) {
        this(RedissonScriptConnection.of(redisson), clock, keyPrefix, instanceId, refusalCacheSize,
                Pipeline.DEFAULT_MAX_BATCH);
    }

    /**
     * @param connection       runs the scripts; closed by {@link #close()} (which never closes the client behind it)
     * @param refusalCacheSize refusals remembered in process until their {@code retryAfter}; 0 sends every request
     * @param maxBatch         the most calls sent together in one pipelined batch; 1 sends each call alone
     */
    public RedisRateLimiter(ScriptConnection connection, Clock clock, String keyPrefix, String instanceId,
                            int refusalCacheSize, int maxBatch) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.pipeline = new Pipeline(connection, maxBatch);
        ScriptRunner runner = new ScriptRunner(pipeline);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.entries = new LimitEntries(keyPrefix, instanceId);
        this.refusals = new RefusalCache(refusalCacheSize);
        this.scripts = new LimitScripts(runner, entries);
        this.resets = new ResetListener(connection, entries.resetChannel(), refusals);
        this.group = new GroupDecision(connection, entries, scripts, refusals, resets, this::sentMicros);
        this.leases = new RedisLeases(runner, entries, resets, clock);
    }

    /**
     * Takes and gives back leases of this limiter's quotas, for a {@code LeasingRateLimiter} in front of it: one
     * atomic script each, on the same connection, keys and reset channel as the decisions.
     */
    public LeaseSource leases() {
        return leases;
    }

    @Override
    public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
        return evaluate(policy, key, permits, RedisRateLimiter::outcome);
    }

    /** A decision Redis took (or a refusal it took before), as {@link BackendOutcome#decided} makes it. */
    private static BackendOutcome outcome(ScriptReply reply) {
        return new BackendOutcome(reply.decision(), null);
    }

    /**
     * All-or-nothing in one script run (see {@link GroupDecision}): a refused call spends nothing. On a cluster, where
     * the limits' keys are in different slots, the limits are decided one by one as {@link RateLimiter#decideAll}
     * describes, stopping at the first refusal with the permits of the limits before it spent.
     */
    @Override
    public CompletionStage<List<BackendOutcome>> decideAll(List<RateLimitRequest> requests) {
        return group.decide(requests, () -> RateLimiter.decideInOrder(this, requests));
    }

    /**
     * The tag and the remembered refusals are worked out once, here; the round trip reuses them (and times the
     * refusal it may remember from this moment, a little before it leaves, so it lapses no later). The caller has
     * checked the permits, as for {@link #decide}.
     */
    @Override
    public Prepared prepare(RateLimitPolicy policy, String key, long permits) {
        Objects.requireNonNull(policy, "policy");
        long sent = sentMicros(policy);
        String tag = RateLimitKeys.hashTag(policy.name(), key);
        resets.subscription();
        Decision remembered = refusals.find(policy, tag, permits, sent);
        return remembered != null ? new Prepared(remembered, null)
                : new Prepared(null, () -> roundTrip(policy, tag, permits, sent, RedisRateLimiter::outcome));
    }

    @Override
    public String backendName() {
        return "redis";
    }

    /** Counts the batches Redis answered: evidence that Redis is alive while a call waits (see {@link Pipeline}). */
    @Override
    public BackendPulse pulse() {
        return pipeline;
    }

    /**
     * Gives {@code key} its whole quota back: deletes the limit's keys in Redis (for the policy's scope: the shared
     * keys, or this instance's for {@link Scope#PER_INSTANCE}) and tells every {@code RedisRateLimiter} on the same
     * Redis and key prefix, through one pub/sub message sent by the same script, to drop the refusals it remembers
     * for that limit. An instance that misses the message (its subscription was down) repeats a remembered refusal
     * for at most {@link RefusalCache#MAX_TRUST_MICROS} microseconds (1 s): no refusal is repeated longer, and the
     * subscription, once made again, clears every remembered refusal.
     */
    @Override
    public CompletionStage<Void> reset(RateLimitPolicy policy, String key) {
        Objects.requireNonNull(policy, "policy");
        String tag = RateLimitKeys.hashTag(policy.name(), key);
        List<String> keys = entries.everyKey(policy, tag);
        resets.subscription();
        refusals.forget(tag);
        return scripts.reset(policy, tag, keys).thenRun(() -> refusals.forget(tag));
    }

    /**
     * Runs the policy's script in peek mode for one permit: the same reads and arithmetic as a decision, every write
     * skipped (no record, no expiry change, no repair of a damaged key), so the keys and their TTLs are as before.
     * Never answered from, nor remembered in, the refusal cache: it shows what Redis holds.
     */
    @Override
    public CompletionStage<Quota> inspect(RateLimitPolicy policy, String key) {
        Objects.requireNonNull(policy, "policy");
        long sent = sentMicros(policy);
        return scripts.decide(policy, RateLimitKeys.hashTag(policy.name(), key), 1, sent, true,
                values -> ScriptReply.ofOne(policy, values).quota());
    }

    /**
     * One run of {@code token_bucket.lua} in charge mode. A refund forgets the refusals this instance remembers for
     * the limit (they could outlast the permits given back); a charge leaves them, as they lapse no later than before.
     */
    @Override
    public CompletionStage<Quota> charge(RateLimitPolicy policy, String key, long permits) {
        long bounded = policy.checkCharge(permits);
        String tag = RateLimitKeys.hashTag(policy.name(), key);
        return scripts.charge(policy, tag, bounded, sentMicros(policy), values -> {
            if (bounded < 0) {
                refusals.forget(tag);
            }
            return ScriptReply.ofOne(policy, values).quota();
        });
    }

    /**
     * Does now, once, what the first decisions would otherwise pay for: opens the client's connections, loads every
     * script into every master ({@code SCRIPT LOAD}), subscribes to resets, and runs the decision script for each
     * algorithm, several at once, in peek mode on a throwaway limit (nothing is written), so that the classes of both
     * the single and the pipelined path, Guard's and the client's, are loaded. Never holds the caller's thread; the
     * stage fails, naming the step, when Redis cannot be reached, and may be called again later.
     *
     * <p>The Spring Boot starter waits for it, within {@code guard.rate-limit.redis.warm-up-timeout}, before the
     * application starts serving: without it the first decisions of a fresh instance wait for a connection or a
     * script load and may run into the decision timeout.
     */
    public CompletionStage<Void> warmUp() {
        List<LuaScript> all = new ArrayList<>(scripts.all());
        all.add(leases.script());
        all.add(SharedHash.SCRIPT); // overrides and fleet commands, on the same connection when kept in Redis
        return WarmUp.run(connection, all, resets, policy -> inspect(policy, WARM_UP));
    }

    /** Completes once this limiter hears resets from other instances. */
    CompletionStage<Void> listening() {
        return resets.subscription().subscribed();
    }

    /** The Redis client the scripts go through: {@code redisson} or {@code lettuce}. */
    public String clientName() {
        return connection.clientName();
    }

    @Override
    public void close() {
        resets.close();
        connection.close();
    }

    /** Runs the policy's script; the caller has checked the permits, so an invalid request never reaches Redis. */
    CompletionStage<ScriptReply> evaluate(RateLimitPolicy policy, String key, long permits) {
        return evaluate(policy, key, permits, Function.identity());
    }

    /** Decides, and answers with the reply (remembered or Redis's) as {@code answer} makes it. */
    private <T> CompletionStage<T> evaluate(RateLimitPolicy policy, String key, long permits,
                                            Function<ScriptReply, T> answer) {
        long sent = sentMicros(policy);
        // The encoded tag, not the raw key, identifies the limit in the cache too: it is bounded in length.
        String tag = RateLimitKeys.hashTag(policy.name(), key);
        resets.subscription();
        Decision remembered = refusals.find(policy, tag, permits, sent);
        if (remembered != null) {
            return CompletableFuture.completedFuture(answer.apply(new ScriptReply(remembered, sent)));
        }
        return roundTrip(policy, tag, permits, sent, answer);
    }

    /**
     * Runs the policy's script for the limit {@code tag} and remembers a refusal (the cache was asked before); the
     * reply is read, remembered and answered in the one stage that checks it.
     */
    private <T> CompletableFuture<T> roundTrip(RateLimitPolicy policy, String tag, long permits, long sent,
                                               Function<ScriptReply, T> answer) {
        return scripts.decide(policy, tag, permits, sent, false, values -> {
            ScriptReply reply = ScriptReply.ofOne(policy, values);
            Decision decision = reply.decision();
            if (!decision.allowed()) { // only refusals are remembered
                refusals.remember(policy, tag, permits, sent, decision);
            }
            return answer.apply(reply);
        });
    }

    /** The Redis keys of one limit for a resolved {@code key}, in the order its script expects them. */
    List<String> keys(RateLimitPolicy policy, String key) {
        return entries.keys(policy, RateLimitKeys.hashTag(policy.name(), key));
    }

    /** Batches sent to Redis so far. */
    long batchesSent() {
        return pipeline.batchesSent();
    }

    /** Refusals remembered right now. */
    int rememberedRefusals() {
        return refusals.size();
    }

    /** When a request leaves, on the clock its policy's refusals are remembered by. */
    private long sentMicros(RateLimitPolicy policy) {
        return policy.timeSource() == TimeSource.CLIENT ? clientMicros() : System.nanoTime() / 1000;
    }

    private long clientMicros() {
        Instant now = clock.instant();
        return ChronoUnit.MICROS.between(Instant.EPOCH, now);
    }
}
