package io.guard.ratelimit.redis;

import io.guard.ratelimit.ReplicaWait;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RScript;
import org.redisson.api.RScriptAsync;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.api.listener.StatusListener;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * Runs Guard's scripts through a {@link RedissonClient}: one call alone as a plain asynchronous {@code EVALSHA}, a
 * batch as an {@link RBatch}, which Redisson sends pipelined, grouped per cluster node. Timeouts and retries are
 * the client's own, for batches too ({@link BatchOptions#defaults()} defers to the client's configuration).
 *
 * <p>A client with {@code lazyInitialization} (the one Guard makes for itself, or an application's that asks for it)
 * connects synchronously on its first command, retrying while Redis refuses: that first connection is made off the
 * caller's thread (see {@link ConnectAttempts}), at start-up by the warm-up ({@link #connect()}), and the reset
 * subscription is made once it stands.
 *
 * <p>Works with Redisson 3.x and 4.x alike: it only uses API both have. In particular the reply type is
 * {@code MAPVALUELIST} (a list of values decoded by the codec), because 3.x's {@code MULTI} is 4.x's {@code LIST}.
 */
public final class RedissonScriptConnection extends ScriptConnection {

    private static final RScript.ReturnType LIST_OF_VALUES = RScript.ReturnType.MAPVALUELIST;

    /** Asked of Redis to find out that the client has connected: any digest will do. */
    private static final String ANY_DIGEST = "0000000000000000000000000000000000000000";

    private final RedissonClient redisson;
    private final RScript script;
    /** Null for a client that connected when it was created. */
    private final ConnectAttempts<Boolean> firstConnection;

    private RedissonScriptConnection(RedissonClient redisson) {
        this.redisson = redisson;
        this.script = redisson.getScript(StringCodec.INSTANCE);
        Config config = redisson.getConfig();
        this.firstConnection = config != null && config.isLazyInitialization()
                ? new ConnectAttempts<>(this::firstCommand) : null;
    }

    private CompletableFuture<Boolean> firstCommand() {
        return script.scriptExistsAsync(new String[] {ANY_DIGEST}).toCompletableFuture().thenApply(found -> true);
    }

    @Override
    public CompletionStage<Void> connect() {
        return firstConnection == null ? CompletableFuture.completedFuture(null)
                : firstConnection.get().thenApply(connected -> null);
    }

    /** Redisson sends {@code SCRIPT LOAD} to every master of a cluster. */
    @Override
    CompletionStage<Void> load(List<LuaScript> scripts) {
        return connect().thenCompose(connected -> CompletableFuture.allOf(scripts.stream()
                .map(each -> script.scriptLoadAsync(each.source()).toCompletableFuture()
                        .thenApply(sha -> checkDigest(each, sha)))
                .toArray(CompletableFuture[]::new)));
    }

    private boolean connected() {
        return firstConnection == null || firstConnection.connected() != null;
    }

    /** Uses {@code redisson} as it is configured; {@link #close()} leaves it open. */
    public static RedissonScriptConnection of(RedissonClient redisson) {
        return new RedissonScriptConnection(Objects.requireNonNull(redisson, "redisson"));
    }

    @Override
    void send(List<ScriptCall> calls) {
        if (firstConnection == null) {
            sendNow(calls);
        } else {
            firstConnection.sendWhenConnected(calls, (connected, waiting) -> sendNow(waiting));
        }
    }

    private void sendNow(List<ScriptCall> calls) {
        if (calls.size() == 1) {
            ScriptCall call = calls.get(0);
            if (call.replicaWait().waits()) {
                sendWaiting(calls, ReplicaShortfall.strongest(calls));
            } else {
                forwardAlone(run(script, call), call);
            }
            return;
        }
        ReplicaWait wait = ReplicaShortfall.strongest(calls);
        if (wait.waits()) {
            sendWaiting(calls, wait);
            return;
        }
        RBatch batch = redisson.createBatch(BatchOptions.defaults());
        RScriptAsync batched = batch.getScript(StringCodec.INSTANCE);
        List<CompletableFuture<List<Object>>> replies = new ArrayList<>(calls.size());
        for (ScriptCall call : calls) {
            if (!call.byDigest()) {
                forward(run(script, call), call);
                continue;
            }
            CompletableFuture<List<Object>> reply = run(batched, call).toCompletableFuture();
            forward(reply, call);
            replies.add(reply);
        }
        List<ScriptCall> batchedCalls = calls.stream().filter(ScriptCall::byDigest).toList();
        // Each command's own future carries its reply or error, and is complete before the batch's when Redis
        // answered (a NOSCRIPT answer to one call also fails the batch as a whole). Only calls Redis did not
        // answer (the batch could not be written, or timed out) take the batch's error.
        batch.executeAsync().whenComplete((results, error) -> {
            if (error != null) {
                for (int i = 0; i < batchedCalls.size(); i++) {
                    if (!replies.get(i).isDone()) {
                        batchedCalls.get(i).reply().completeExceptionally(error);
                    }
                }
            }
        });
    }

    /**
     * Calls of which some wait for replicas: one batch with Redisson's {@code WAIT} after it ({@link BatchOptions#sync},
     * sent on the batch's connection, per node in a cluster), each call completed once the batch has answered.
     * Calls by source (after {@code NOSCRIPT}) load the script first and then go in the batch by digest.
     */
    private void sendWaiting(List<ScriptCall> calls, ReplicaWait wait) {
        List<ScriptCall> bySource = calls.stream().filter(call -> !call.byDigest()).toList();
        CompletionStage<Void> loaded = bySource.isEmpty() ? CompletableFuture.completedFuture(null)
                : CompletableFuture.allOf(bySource.stream().map(call -> script.scriptLoadAsync(call.script().source())
                .toCompletableFuture()).toArray(CompletableFuture[]::new));
        loaded.whenComplete((ignored, loadError) -> {
            if (loadError != null) {
                calls.forEach(call -> call.reply().completeExceptionally(loadError));
                return;
            }
            RBatch batch = redisson.createBatch(BatchOptions.defaults().sync(wait.replicas(), wait.timeout()));
            RScriptAsync batched = batch.getScript(StringCodec.INSTANCE);
            List<CompletableFuture<List<Object>>> replies = new ArrayList<>(calls.size());
            for (ScriptCall call : calls) {
                replies.add(batched.<List<Object>>evalShaAsync(call.routingKey(), RScript.Mode.READ_WRITE,
                        call.script().sha(), LIST_OF_VALUES, List.copyOf(call.keys()), call.args().toArray())
                        .toCompletableFuture());
            }
            batch.executeAsync().whenComplete((result, error) -> {
                for (int i = 0; i < calls.size(); i++) {
                    ScriptCall call = calls.get(i);
                    CompletableFuture<List<Object>> reply = replies.get(i);
                    if (reply.isDone() && !reply.isCompletedExceptionally()) {
                        ReplicaShortfall.settle(call, reply.join(),
                                error == null ? result.getSyncedSlaves() : 0);
                    } else if (reply.isDone()) {
                        reply.whenComplete((values, callError) -> call.reply().completeExceptionally(callError));
                    } else {
                        call.reply().completeExceptionally(error);
                    }
                }
            });
        });
    }

    /**
     * A call by digest as is; a call by source loads the script first ({@code SCRIPT LOAD} reaches every master)
     * and then runs it by digest, outside any batch: Redisson may send an {@code EVAL} as {@code EVALSHA} (its own
     * script cache) and would then fail it again with {@code NOSCRIPT}.
     */
    private CompletionStage<List<Object>> run(RScriptAsync target, ScriptCall call) {
        List<Object> keys = List.copyOf(call.keys());
        Object[] args = call.args().toArray();
        String routingKey = call.routingKey();
        if (call.byDigest()) {
            return target.evalShaAsync(routingKey, RScript.Mode.READ_WRITE, call.script().sha(), LIST_OF_VALUES, keys,
                    args);
        }
        return script.scriptLoadAsync(call.script().source()).thenCompose(sha -> script.<List<Object>>evalShaAsync(
                routingKey, RScript.Mode.READ_WRITE, sha, LIST_OF_VALUES, keys, args));
    }

    /** A call sent alone: cancelling it cancels Redisson's command, which Redisson then neither sends nor retries. */
    private static void forwardAlone(CompletionStage<List<Object>> reply, ScriptCall call) {
        CompletableFuture<List<Object>> waiting = call.reply();
        waiting.whenComplete((values, error) -> {
            if (waiting.isCancelled()) {
                reply.toCompletableFuture().cancel(false);
            }
        });
        forward(reply, waiting);
    }

    private static void forward(CompletionStage<List<Object>> reply, ScriptCall call) {
        forward(reply, call.reply());
    }

    private static void forward(CompletionStage<List<Object>> reply, CompletableFuture<List<Object>> waiting) {
        reply.whenComplete((values, error) -> {
            if (error == null) {
                waiting.complete(values);
            } else {
                waiting.completeExceptionally(error);
            }
        });
    }

    @Override
    boolean clustered() {
        return redisson.getConfig().isClusterConfig();
    }

    /**
     * An {@link RTopic} with a status listener: Redisson subscribes in the background (also while Redis is down) and
     * again after each reconnect, announcing every subscription, the first included.
     */
    @Override
    Subscription subscribe(String channel, Consumer<String> onMessage, Runnable onResubscribed) {
        if (connected()) {
            return subscribeNow(channel, onMessage, onResubscribed);
        }
        CompletableFuture<Subscription> made = new CompletableFuture<>();
        firstConnection.whenConnected(connected -> {
            Subscription subscription = subscribeNow(channel, onMessage, onResubscribed);
            if (!made.complete(subscription)) {
                subscription.close(); // closed while waiting for the connection
            }
        });
        return new Subscription() {
            @Override
            public CompletionStage<Void> subscribed() {
                return made.thenCompose(Subscription::subscribed);
            }

            @Override
            public void close() {
                made.cancel(false);
                made.thenAccept(Subscription::close);
            }
        };
    }

    private Subscription subscribeNow(String channel, Consumer<String> onMessage, Runnable onResubscribed) {
        RTopic topic = redisson.getTopic(channel, StringCodec.INSTANCE);
        CompletableFuture<Void> subscribed = new CompletableFuture<>();
        CompletableFuture<Integer> status = topic.addListenerAsync(new StatusListener() {
            @Override
            public void onSubscribe(String name) {
                if (!subscribed.complete(null)) {
                    onResubscribed.run();
                }
            }

            @Override
            public void onUnsubscribe(String name) {
            }
        }).toCompletableFuture();
        CompletableFuture<Integer> messages = topic.addListenerAsync(String.class,
                (name, message) -> onMessage.accept(message)).toCompletableFuture();
        return new Subscription() {
            @Override
            public CompletionStage<Void> subscribed() {
                return subscribed;
            }

            @Override
            public void close() {
                status.thenAccept(topic::removeListenerAsync);
                messages.thenAccept(topic::removeListenerAsync);
            }
        };
    }

    @Override
    public String clientName() {
        return "redisson";
    }

    @Override
    public void close() {
        // Nothing of its own: the client belongs to the application.
    }
}
