package io.guard.ratelimit.redis;


import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One hash every instance on a Redis and key prefix shares, with the channel that announces its changes: what the
 * limits' overrides and the breakers' fleet-wide states are both kept in. The script ({@code overrides.lua}) changes
 * the hash and publishes in one step, so an instance that re-reads on the message sees the change.
 */
final class SharedHash implements AutoCloseable {

    private final ScriptConnection connection;
    private final ScriptRunner runner;
    private final String hash;
    private final String channel;
    /** Changes or reads a shared hash, and publishes a change; the warm-up loads it (see RedisRateLimiter). */
    static final LuaScript SCRIPT = LuaScript.fromResource("overrides");

    private final List<LuaScript> scripts;
    private final AtomicReference<Subscription> subscription = new AtomicReference<>();

    /**
     * @param hashTag the hash's name after the prefix, in braces so it has a slot of its own in a cluster
     * @param channel the channel's name after the prefix
     * @param others  further scripts run on keys beside the hash (see {@link #run(LuaScript, List, List)}), loaded with
     *                its own
     */
    SharedHash(ScriptConnection connection, String keyPrefix, String hashTag, String channel, LuaScript... others) {
        this.connection = Objects.requireNonNull(connection, "connection");
        String prefix = LimitEntries.checkedPrefix(keyPrefix);
        this.runner = new ScriptRunner(new Pipeline(connection, 1));
        this.hash = prefix + "{" + hashTag + "}";
        this.channel = prefix + channel;
        List<LuaScript> all = new ArrayList<>(List.of(others));
        all.add(SCRIPT);
        this.scripts = List.copyOf(all);
    }

    /** A key beside the hash, in its slot: the hash's name followed by {@code suffix}. */
    String key(String suffix) {
        return hash + suffix;
    }

    /** Sets {@code field} and publishes {@code message}. */
    CompletionStage<Void> put(String field, String value, String message) {
        return run(List.of("set", channel, field, value, message)).thenApply(reply -> null);
    }

    /** Removes {@code field} and publishes its name. */
    CompletionStage<Void> remove(String field) {
        return run(List.of("del", channel, field)).thenApply(reply -> null);
    }

    CompletionStage<Map<String, String>> readAll() {
        return run(List.of("get")).thenApply(reply -> {
            Map<String, String> fields = new LinkedHashMap<>();
            for (int i = 0; i + 1 < reply.size(); i += 2) {
                fields.put(String.valueOf(reply.get(i)), String.valueOf(reply.get(i + 1)));
            }
            return fields;
        });
    }

    /** Subscribes once (a second call keeps the first subscription); see {@link ScriptConnection#subscribe}. */
    void listen(Consumer<String> onMessage, Runnable onResubscribed) {
        synchronized (subscription) {
            if (subscription.get() == null) {
                subscription.set(connection.subscribe(channel, onMessage, onResubscribed));
            }
        }
    }

    /** Completes once this hash hears of changes made elsewhere (after {@link #listen}). */
    CompletionStage<Void> listening() {
        Subscription current = subscription.get();
        return current == null ? CompletableFuture.failedFuture(new IllegalStateException("not listening"))
                : current.subscribed();
    }

    @Override
    public void close() {
        Subscription current = subscription.getAndSet(null);
        if (current != null) {
            current.close();
        }
    }

    /**
     * Runs the script by digest once it is loaded: the warm-up loads the overrides' script (see
     * {@link RedisRateLimiter#warmUp()}), and the reads at start-up (the first one and the one after subscribing, at
     * once) wait for that load instead of each paying a {@code NOSCRIPT} and an {@code EVAL}.
     */
    private CompletionStage<List<Object>> run(List<String> args) {
        return run(SCRIPT, List.of(hash), args);
    }

    /** Runs one of the scripts given to the constructor on {@code keys}, each in the hash's slot (see {@link #key}). */
    CompletionStage<List<Object>> run(LuaScript other, List<String> keys, List<String> args) {
        return connection.loadOnce(scripts).thenCompose(ready -> runner.run(other, keys, args));
    }
}
