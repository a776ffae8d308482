package io.guard.ratelimit.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Turns a pipelined batch of calls into as few script runs as the server allows: calls of a concatenative script
 * ({@link DecideScript}) that may run together (one group: the whole server, or one hash slot on a cluster, see
 * {@link ScriptConnection#scriptGroup}) become one call, in the order they were submitted; any other call is sent as
 * it is. One run decides the entries one after the other, so the decisions are those of the same calls one by one in
 * that order, and Redis pays the fixed cost of a command (parsing, dispatch, the reply) once per group.
 */
final class ScriptBatches {

    private ScriptBatches() {
    }

    static List<ScriptCall> merge(List<ScriptCall> calls, Function<String, Object> groupOf) {
        if (calls.size() == 1) {
            return calls; // nothing to merge with: the common case when Redis keeps up
        }
        List<ScriptCall> sent = new ArrayList<>(calls.size());
        Map<List<Object>, List<ScriptCall>> groups = new LinkedHashMap<>();
        for (ScriptCall call : calls) {
            if (call.script().concatenative()) {
                // By digest and by source (after NOSCRIPT) apart: a merged call is sent one way.
                groups.computeIfAbsent(List.of(groupOf.apply(call.routingKey()), call.byDigest()),
                        group -> new ArrayList<>()).add(call);
            } else {
                sent.add(call);
            }
        }
        for (List<ScriptCall> group : groups.values()) {
            sent.add(group.size() == 1 ? group.get(0) : concatenated(group));
        }
        return sent;
    }

    /** One call running every entry of {@code group} in order; its reply is split back into theirs. */
    private static ScriptCall concatenated(List<ScriptCall> group) {
        List<String> keys = new ArrayList<>();
        List<String> args = new ArrayList<>();
        for (ScriptCall call : group) {
            keys.addAll(call.keys());
            args.addAll(call.args());
        }
        ScriptCall first = group.get(0);
        ScriptCall merged = new ScriptCall(first.script(), first.byDigest(), keys, args, new CompletableFuture<>(),
                ReplicaShortfall.strongest(group), first.trace());
        merged.reply().whenComplete((reply, error) -> {
            if (error instanceof ReplicaShortfall shortfall) {
                split(shortfall.reply(), group, shortfall.acknowledged());
            } else if (error != null) {
                group.forEach(call -> call.reply().completeExceptionally(error));
            } else {
                split(reply, group, Long.MAX_VALUE);
            }
        });
        // Once every decision in it was answered otherwise (timed out and cancelled), the merged call is cancelled
        // too, so that a connection that has not sent it yet drops it, as it would drop each of them alone.
        AtomicInteger open = new AtomicInteger(group.size());
        group.forEach(call -> call.reply().whenComplete((reply, error) -> {
            if (open.decrementAndGet() == 0 && call.reply().isCancelled()) {
                merged.reply().cancel(false);
            }
        }));
        return merged;
    }

    /** Hands each call its part of the merged reply, settled against the {@code acknowledged} replicas. */
    private static void split(List<Object> reply, List<ScriptCall> group, long acknowledged) {
        int from = 0;
        for (ScriptCall call : group) {
            try {
                int to = from + DecideScript.entryLength(reply, from);
                ReplicaShortfall.settle(call, List.copyOf(reply.subList(from, to)), acknowledged);
                from = to;
            } catch (RuntimeException e) {
                call.reply().completeExceptionally(new IllegalStateException("unexpected reply to a batch of "
                        + group.size() + " decisions: " + reply.size() + " values", e));
            }
        }
    }
}
