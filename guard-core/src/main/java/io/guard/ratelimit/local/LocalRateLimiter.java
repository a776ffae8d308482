package io.guard.ratelimit.local;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitKeys;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.BackendOutcome;

import java.time.Clock;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The same algorithms and {@link Decision}s as the Redis backend, in this process: for a single instance, for
 * tests, and as the {@code LOCAL} fall-back when Redis is down. Every policy's time is this limiter's clock
 * ({@link io.guard.ratelimit.TimeSource} makes no difference in process), and a {@code GLOBAL} limit is only as
 * global as this JVM.
 *
 * <p>State that can no longer matter is dropped on a sweep every {@value #SWEEP_EVERY} decisions, so memory follows
 * the keys in use, as Redis key expiry does.
 */
public final class LocalRateLimiter implements RateLimiter {

    static final int SWEEP_EVERY = 1024;

    private final Clock clock;
    private final Map<String, Slot> slots = new ConcurrentHashMap<>();
    private final AtomicLong decisions = new AtomicLong();

    /** A limiter on {@code clock}. */
    public LocalRateLimiter(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
        return CompletableFuture.completedFuture(BackendOutcome.decided(decideNow(policy, key, permits)));
    }

    private Decision decideNow(RateLimitPolicy policy, String key, long permits) {
        String id = id(policy, policy.algorithm(), key);
        if (decisions.incrementAndGet() % SWEEP_EVERY == 0) {
            sweep();
        }
        while (true) {
            Slot slot = slots.computeIfAbsent(id, k -> new Slot(newState(policy)));
            synchronized (slot) {
                if (!slot.removed) {
                    return slot.state.decide(policy, Micros.now(clock), permits, true);
                }
            }
        }
    }

    /** Reads the state as a one-permit request would, changing nothing; a key without state is full. */
    @Override
    public CompletionStage<Quota> inspect(RateLimitPolicy policy, String key) {
        Objects.requireNonNull(policy, "policy");
        long now = Micros.now(clock);
        Slot slot = slots.get(id(policy, policy.algorithm(), key));
        if (slot != null) {
            synchronized (slot) {
                if (!slot.removed) {
                    return CompletableFuture.completedFuture(Quota.of(slot.state.decide(policy, now, 1, false)));
                }
            }
        }
        return CompletableFuture.completedFuture(Quota.of(newState(policy).decide(policy, now, 1, false)));
    }

    /** Forgets the key's state under every algorithm, as the Redis reset deletes every key the limit may have. */
    @Override
    public CompletionStage<Void> reset(RateLimitPolicy policy, String key) {
        Objects.requireNonNull(policy, "policy");
        for (Algorithm algorithm : Algorithm.values()) {
            Slot slot = slots.remove(id(policy, algorithm, key));
            if (slot != null) {
                synchronized (slot) {
                    slot.removed = true;
                }
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public String backendName() {
        return "local";
    }

    /**
     * Forgets every quota, so that the next call of every limit and key starts full: for tests of an application
     * that share one limiter between test cases.
     */
    public void reset() {
        slots.forEach((id, slot) -> {
            synchronized (slot) {
                slot.removed = true;
            }
            slots.remove(id, slot);
        });
    }

    @Override
    public void close() {
        slots.clear();
    }

    /** How many limits hold state right now. */
    int size() {
        return slots.size();
    }

    /** Drops every limit whose state can no longer affect a decision. */
    void sweep() {
        long now = Micros.now(clock);
        for (Iterator<Map.Entry<String, Slot>> it = slots.entrySet().iterator(); it.hasNext(); ) {
            Slot slot = it.next().getValue();
            synchronized (slot) {
                if (slot.state.expiresAtMicros() <= now) {
                    slot.removed = true;
                    it.remove();
                }
            }
        }
    }

    private static String id(RateLimitPolicy policy, Algorithm algorithm, String key) {
        return RateLimitKeys.hashTag(policy.name(), key) + ":" + algorithm;
    }

    private static LimitState newState(RateLimitPolicy policy) {
        return switch (policy.algorithm()) {
            case SLIDING_LOG -> new SlidingLogState();
            case TOKEN_BUCKET -> new TokenBucketState();
            case FIXED_WINDOW -> new FixedWindowState();
        };
    }

    /** A state and whether a sweep has unlinked it (a decider holding a stale slot must look again). */
    private static final class Slot {
        final LimitState state;
        boolean removed;

        Slot(LimitState state) {
            this.state = state;
        }
    }
}
