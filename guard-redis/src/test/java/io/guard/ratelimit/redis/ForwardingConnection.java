package io.guard.ratelimit.redis;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * A real connection with everything forwarded to it, for test doubles that change only how batches are sent
 * ({@link HeldBackConnection}, {@link LateRepliesConnection}).
 */
abstract class ForwardingConnection extends ScriptConnection {

    final ScriptConnection real;

    ForwardingConnection(ScriptConnection real) {
        this.real = real;
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
