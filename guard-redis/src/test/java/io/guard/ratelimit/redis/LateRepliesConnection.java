package io.guard.ratelimit.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * A real connection in a client that turns busy when told ({@link #busy()}): from then on the first batch waits
 * until the test {@link #release() releases} it (so that the calls after it queue behind it, as in a burst), and the
 * replies of every later batch reach the caller {@code lateMillis} after Redis sent them (an event loop that waited
 * for a CPU). Redis itself answers every call at once.
 */
final class LateRepliesConnection extends ForwardingConnection {

    private final Executor late;
    private boolean busy;
    private boolean first = true;
    private List<ScriptCall> held;

    LateRepliesConnection(ScriptConnection real, long lateMillis) {
        super(real);
        this.late = CompletableFuture.delayedExecutor(lateMillis, TimeUnit.MILLISECONDS);
    }

    /** Sends the held first batch. */
    void release() {
        List<ScriptCall> calls;
        synchronized (this) {
            calls = held;
            held = null;
        }
        real.send(calls);
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
            synchronized (this) {
                held = calls;
            }
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
}
