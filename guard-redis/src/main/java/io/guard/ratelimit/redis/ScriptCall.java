package io.guard.ratelimit.redis;

import io.guard.ratelimit.ReplicaWait;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One script run waiting to be sent: by digest ({@code EVALSHA}) normally, by source ({@code EVAL}) when the server
 * answered {@code NOSCRIPT}. The first key routes the call in a cluster (all keys of a limit share one slot).
 *
 * @param reply completed with the script's reply (a list of integers) or the client's error; for a call that
 *              {@code replicaWait}s, once the {@code WAIT} sent after it has answered (see {@link ReplicaShortfall#settle})
 * @param replicaWait replicas that must acknowledge the call's writes ({@code WAIT} after it, on the same connection)
 * @param trace       the client's trace context where the call was made (the decision's observation, so that the
 *                    client's span of the command is its child whichever thread sends it); null when it does not trace
 */
record ScriptCall(LuaScript script, boolean byDigest, List<String> keys, List<String> args,
                  CompletableFuture<List<Object>> reply, ReplicaWait replicaWait, Object trace) {

    /** A call traced by nothing. */
    ScriptCall(LuaScript script, boolean byDigest, List<String> keys, List<String> args,
               CompletableFuture<List<Object>> reply, ReplicaWait replicaWait) {
        this(script, byDigest, keys, args, reply, replicaWait, null);
    }

    /** A call that waits for no replica. */
    ScriptCall(LuaScript script, boolean byDigest, List<String> keys, List<String> args,
               CompletableFuture<List<Object>> reply) {
        this(script, byDigest, keys, args, reply, ReplicaWait.NONE, null);
    }

    String routingKey() {
        return keys.get(0);
    }

    /**
     * The calls still waiting for a reply: a call answered already (its decision timed out and was cancelled, so
     * the caller has its answer from the failure policy) must not reach Redis any more.
     */
    static List<ScriptCall> unanswered(List<ScriptCall> calls) {
        return calls.stream().filter(call -> !call.reply().isDone()).toList();
    }

    /** The same call, to be sent with the script's source. */
    ScriptCall bySource() {
        return new ScriptCall(script, false, keys, args, new CompletableFuture<>(), replicaWait, trace);
    }
}
