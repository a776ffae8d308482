package io.guard.ratelimit.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The seam between Guard's Redis backend and a Redis client: sends a batch of script calls ({@code EVALSHA}, or
 * {@code EVAL} after a {@code NOSCRIPT}) pipelined, each routed by its first key, and completes each call with its
 * own reply or error. Everything above it (key layout, scripts, refusal cache, batching, the NOSCRIPT reload) is the
 * same whatever the client, so the backend behaves identically on Redisson and on Spring Data Redis.
 *
 * <p>Obtain one from {@link RedissonScriptConnection#of} or {@link LettuceScriptConnection#of}. Implementations live
 * in this package only: the methods that send are package-private.
 */
public abstract class ScriptConnection implements AutoCloseable {

    ScriptConnection() {
    }

    /**
     * Sends {@code calls} in one write where the client allows it (per node in a cluster) and completes every call's
     * {@link ScriptCall#reply()}, by the client's own timeouts at the latest. Never throws: a failure to send fails
     * the calls.
     */
    abstract void send(List<ScriptCall> calls);

    /**
     * The client's trace context on the calling thread, which {@link #send} gives the call's command so that the
     * client's span of it is a child of whatever observation was current where the call was made (the decision's),
     * not of whatever the sending thread has; null when the client does not trace its commands.
     */
    Object traceContext() {
        return null;
    }

    /**
     * Which batch queue a call for {@code routingKey} joins: the cluster node that owns its slot where the client
     * can tell cheaply, so a slow node holds back only its own calls; one queue otherwise.
     */
    Object laneOf(String routingKey) {
        return this;
    }

    /**
     * Which calls may run together in one script: every call on a single server; on a cluster only calls whose keys
     * share one hash tag (so one slot), since a script may touch the keys of one slot only.
     */
    final Object scriptGroup(String routingKey) {
        if (!clustered()) {
            return this;
        }
        int open = routingKey.indexOf('{');
        int close = open < 0 ? -1 : routingKey.indexOf('}', open + 1);
        return close > open + 1 ? routingKey.substring(open + 1, close) : routingKey;
    }

    /** Whether the client talks to a Redis Cluster, where keys live in slots spread over several masters. */
    abstract boolean clustered();

    /**
     * Listens on {@code channel}: {@code onMessage} gets each message, {@code onResubscribed} runs each time the
     * client subscribes again after losing the subscription (messages sent meanwhile were missed). Returns at once
     * and never fails for an unreachable Redis: the subscription is made, and remade, in the background. Both run on
     * the client's I/O thread, which also reads the replies to the script calls: they must not wait for Redis.
     */
    abstract Subscription subscribe(String channel, Consumer<String> onMessage, Runnable onResubscribed);

    /**
     * Makes the connections now (for a client that connects on first use: Lettuce, a lazy Redisson client), without
     * holding the caller's thread; completes once they stand, or fails with the attempt (a later call tries again).
     * Completes at once for a client that is connected already. Part of the warm-up, see
     * {@link RedisRateLimiter#warmUp()}.
     */
    public CompletionStage<Void> connect() {
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Puts {@code scripts} in the script cache of every master ({@code SCRIPT LOAD}), so that no decision pays for a
     * {@code NOSCRIPT} and a second round trip; completes once every master has them. Connects first if need be.
     */
    abstract CompletionStage<Void> load(List<LuaScript> scripts);

    /** Fails unless Redis answered {@code script}'s load with the digest Guard computed for it. */
    static Void checkDigest(LuaScript script, String sha) {
        if (!script.sha().equalsIgnoreCase(sha)) {
            throw new IllegalStateException("Redis loaded script '" + script.name() + "' as " + sha + " but Guard "
                    + "computed " + script.sha());
        }
        return null;
    }

    /** The client's name, for logs and the actuator: {@code redisson}, {@code lettuce}. */
    public abstract String clientName();

    /** Releases what this connection opened itself; never the client or factory it was made from. */
    @Override
    public abstract void close();
}
