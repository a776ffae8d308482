package io.guard.ratelimit.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A real connection in a client that turns busy when told ({@link #busy()}): from then on the first batch leaves
 * after {@code firstWriteMillis} (a write that waited for a CPU), and the replies of every later batch reach the
 * caller {@code lateMillis} after Redis sent them (an event loop that waited for a CPU). Redis itself answers every
 * call at once.
 */
final class LateRepliesConnection extends ScriptConnection {

    private final ScriptConnection real;
    private final Executor firstWrite;
    private final Executor late;
    private boolean busy;
    private boolean first = true;

    LateRepliesConnection(ScriptConnection real, long firstWriteMillis, long lateMillis) {
        this.real = real;
        this.firstWrite = CompletableFuture.delayedExecutor(firstWriteMillis, TimeUnit.MILLISECONDS);
        this.late = CompletableFuture.delayedExecutor(lateMillis, TimeUnit.MILLISECONDS);
    }

    /** Every batch from now on is held up in this client, as described above. */
    synchronized void busy() {
        busy = true;
    }

    @Override
    void send(List<ScriptCall> calls) {
        boolean isFirst;
        synchronized (this) {
            if (!busy) {
                real.send(calls);
                return;
            }
            isFirst = first;
            first = false;
        }
        if (isFirst) {
            firstWrite.execute(() -> real.send(calls));
            return;
        }
        List<ScriptCall> shadows = new ArrayList<>(calls.size());
        for (ScriptCall call : calls) {
            ScriptCall shadow = new ScriptCall(call.script(), call.byDigest(), call.keys(), call.args(),
                    new CompletableFuture<>());
            shadow.reply().whenComplete((reply, error) -> late.execute(() -> {
                if (error == null) {
                    call.reply().complete(reply);
                } else {
                    call.reply().completeExceptionally(error);
                }
            }));
            shadows.add(shadow);
        }
        real.send(shadows);
    }

    @Override
    boolean clustered() {
        return real.clustered();
    }

    @Override
    Object laneOf(String routingKey) {
        return real.laneOf(routingKey);
    }

    @Override
    Subscription subscribe(String channel, Consumer<String> onMessage, Runnable onResubscribed) {
        return real.subscribe(channel, onMessage, onResubscribed);
    }

    @Override
    public String clientName() {
        return real.clientName();
    }

    @Override
    public void close() {
        real.close();
    }
}
