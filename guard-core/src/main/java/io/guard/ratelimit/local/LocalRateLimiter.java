package io.guard.ratelimit.local;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitKeys;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.RateLimitRequest;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

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

    /**
     * All-or-nothing, atomically: holds every involved state's monitor (in one global order, so two groups never
     * wait on each other), decides each limit in turn and, if any refuses, puts every state back as it was.
     */
    @Override
    public CompletionStage<List<BackendOutcome>> decideAll(List<RateLimitRequest> requests) {
        while (true) {
            Map<String, Slot> involved = new TreeMap<>();
            for (RateLimitRequest request : requests) {
                involved.computeIfAbsent(id(request.policy(), request.key()), slotFor(request.policy()));
            }
            List<BackendOutcome> outcomes = underMonitors(new ArrayList<>(involved.values()), 0,
                    () -> decideGroup(requests, involved));
            if (outcomes != null) {
                return CompletableFuture.completedFuture(outcomes);
            }
        }
    }

    /** Runs {@code group} holding the monitors of {@code held} from {@code from} on; null if one was swept away. */
    private static List<BackendOutcome> underMonitors(List<Slot> held, int from,
                                                      Supplier<List<BackendOutcome>> group) {
        if (from == held.size()) {
            return group.get();
        }
        Slot slot = held.get(from);
        synchronized (slot) {
            return slot.removed ? null : underMonitors(held, from + 1, group);
        }
    }

    private List<BackendOutcome> decideGroup(List<RateLimitRequest> requests, Map<String, Slot> involved) {
        long now = Micros.now(clock);
        Deque<Runnable> undo = new ArrayDeque<>();
        List<BackendOutcome> outcomes = new ArrayList<>(requests.size());
        boolean refused = false;
        for (RateLimitRequest request : requests) {
            LimitState state = involved.get(id(request.policy(), request.key())).state;
            undo.push(state.mark());
            Decision decision = state.decide(request.policy(), now, request.permits(), true);
            refused |= !decision.allowed();
            outcomes.add(BackendOutcome.decided(decision));
        }
        if (refused) {
            undo.forEach(Runnable::run);
        }
        return outcomes;
    }

    private Decision decideNow(RateLimitPolicy policy, String key, long permits) {
        String id = id(policy, key);
        while (true) {
            Slot slot = slotFor(policy).apply(id);
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
        Slot slot = slots.get(id(policy, key));
        if (slot != null) {
            synchronized (slot) {
                if (!slot.removed) {
                    return CompletableFuture.completedFuture(slot.state.quota(policy, now));
                }
            }
        }
        return CompletableFuture.completedFuture(newState(policy).quota(policy, now));
    }

    /** As {@code token_bucket.lua}'s charge mode does it, under the key's monitor. */
    @Override
    public CompletionStage<Quota> charge(RateLimitPolicy policy, String key, long permits) {
        long bounded = policy.checkCharge(permits);
        String id = id(policy, key);
        while (true) {
            Slot slot = slotFor(policy).apply(id);
            synchronized (slot) {
                if (!slot.removed) {
                    return CompletableFuture.completedFuture(((TokenBucketState) slot.state).charge(policy,
                            Micros.now(clock), bounded));
                }
            }
        }
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

    private static String id(RateLimitPolicy policy, String key) {
        return id(policy, policy.algorithm(), key);
    }

    private static String id(RateLimitPolicy policy, Algorithm algorithm, String key) {
        return RateLimitKeys.hashTag(policy.name(), key) + ":" + algorithm;
    }

    /** The slot of an id, made for {@code policy} if missing; counts a decision towards the next sweep. */
    private Function<String, Slot> slotFor(RateLimitPolicy policy) {
        return id -> {
            if (decisions.incrementAndGet() % SWEEP_EVERY == 0) {
                sweep();
            }
            return slots.computeIfAbsent(id, k -> new Slot(newState(policy)));
        };
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
