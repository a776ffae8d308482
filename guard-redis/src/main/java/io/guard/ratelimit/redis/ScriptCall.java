package io.guard.ratelimit.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One script run waiting to be sent: by digest ({@code EVALSHA}) normally, by source ({@code EVAL}) when the server
 * answered {@code NOSCRIPT}. The first key routes the call in a cluster (all keys of a limit share one slot).
 *
 * @param reply completed with the script's reply (a list of integers) or the client's error
 */
record ScriptCall(LuaScript script, boolean byDigest, List<String> keys, List<String> args,
                  CompletableFuture<List<Object>> reply) {

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
        return new ScriptCall(script, false, keys, args, new CompletableFuture<>());
    }
}
