package io.guard.ratelimit.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * A real connection whose first send waits until the test releases it, so that the calls submitted meanwhile queue
 * in the pipeline and leave as one batch: batches become a thing a test can arrange rather than hope for. Records
 * what each send carried, after merging.
 */
final class HeldBackConnection extends ScriptConnection {

    private final ScriptConnection real;
    private final List<List<ScriptCall>> sent = new ArrayList<>();
    private List<ScriptCall> held;
    private boolean holding = true;

    HeldBackConnection(ScriptConnection real) {
        this.real = real;
    }

    @Override
    void send(List<ScriptCall> calls) {
        synchronized (this) {
            sent.add(List.copyOf(calls));
            if (holding) {
                holding = false;
                held = calls;
                return;
            }
        }
        real.send(calls);
    }

    /** Sends the held batch; the pipeline sends what queued meanwhile once it is answered. */
    void release() {
        List<ScriptCall> calls;
        synchronized (this) {
            calls = held;
            held = null;
        }
        real.send(calls);
    }

    /** The calls of each send so far (a batch merged into script runs), first send first. */
    synchronized List<List<ScriptCall>> sent() {
        return List.copyOf(sent);
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
    public CompletionStage<Void> connect() {
        return real.connect();
    }

    @Override
    CompletionStage<Void> load(List<LuaScript> scripts) {
        return real.load(scripts);
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
