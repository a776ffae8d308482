package io.guard.ratelimit.redis;

import io.guard.ratelimit.Failures;
import io.guard.ratelimit.ReplicaWait;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Runs a script by digest and, when the node has forgotten it ({@code SCRIPT FLUSH}, a restart, a fail-over to a
 * replica that never saw it), once more by source, which also puts it back in that node's cache. A call that
 * failed with {@code NOSCRIPT} did not run, so running it again later is still one decision, taken then.
 */
final class ScriptRunner {

    private final Pipeline pipeline;

    ScriptRunner(Pipeline pipeline) {
        this.pipeline = pipeline;
    }

    /**
     * Never throws: whatever goes wrong on the way to Redis fails the stage. Cancelling the stage drops the call if
     * it has not been sent yet.
     */
    CompletionStage<List<Object>> run(LuaScript script, List<String> keys, List<String> args) {
        return run(script, keys, args, ReplicaWait.NONE);
    }

    /** Likewise, followed by a {@code WAIT} for {@code wait}'s replicas (see {@link ReplicaShortfall}). */
    CompletionStage<List<Object>> run(LuaScript script, List<String> keys, List<String> args, ReplicaWait wait) {
        CompletableFuture<List<Object>> sent = new CompletableFuture<>();
        ScriptCall call = new ScriptCall(script, true, keys, args, sent, wait, pipeline.traceContext());
        CompletableFuture<List<Object>> result = new CompletableFuture<>();
        result.whenComplete((reply, error) -> {
            if (result.isCancelled()) {
                sent.cancel(false); // the caller stopped waiting: not sent if still queued
            }
        });
        sent.whenComplete((reply, error) -> {
            if (error == null) {
                result.complete(reply);
            } else if (isNoScript(error) && !result.isDone()) {
                ScriptCall again = call.bySource();
                again.reply().whenComplete((second, secondError) -> {
                    if (secondError == null) {
                        result.complete(second);
                    } else {
                        result.completeExceptionally(Failures.unwrap(secondError));
                    }
                });
                pipeline.submit(again);
            } else {
                result.completeExceptionally(Failures.unwrap(error));
            }
        });
        pipeline.submit(call);
        return result;
    }

    /** Both clients name the server's error in their message; Redisson and Lettuce also have their own class. */
    static boolean isNoScript(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }
}
