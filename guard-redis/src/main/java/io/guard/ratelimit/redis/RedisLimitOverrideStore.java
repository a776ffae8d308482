package io.guard.ratelimit.redis;

import io.guard.ratelimit.LimitOverrideStore;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Overrides of limits shared by every instance on one Redis and key prefix: one hash,
 * {@code <prefix>{guard-overrides}} (a hash tag no limit's keys can have: theirs always hold a {@code ':'}), changed by
 * a script that also publishes the policy name on {@code <prefix>overrides}, so that every instance re-reads at once.
 * Pub/sub may miss a message (a lost connection); {@link #listen} re-runs the listener after each re-subscription,
 * and the Spring layer re-reads periodically as well.
 */
public final class RedisLimitOverrideStore implements LimitOverrideStore {

    private final ScriptConnection connection;
    private final ScriptRunner runner;
    private final String hash;
    private final String channel;
    /** Changes or reads the overrides hash, and publishes a change. */
    static final LuaScript SCRIPT = LuaScript.fromResource("overrides");
    private final AtomicReference<Subscription> subscription = new AtomicReference<>();

    /**
     * @param connection runs the script and the subscription; not closed by {@link #close()}
     * @param keyPrefix  the prefix of every Guard key (as the limiter's); must not contain braces
     */
    public RedisLimitOverrideStore(ScriptConnection connection, String keyPrefix) {
        this.connection = Objects.requireNonNull(connection, "connection");
        String prefix = LimitEntries.checkedPrefix(keyPrefix);
        this.runner = new ScriptRunner(new Pipeline(connection, 1));
        this.hash = prefix + "{guard-overrides}";
        this.channel = prefix + "overrides";
    }

    @Override
    public CompletionStage<Void> put(String limit, String value) {
        return run(List.of("set", channel, limit, value)).thenApply(reply -> null);
    }

    @Override
    public CompletionStage<Void> remove(String limit) {
        return run(List.of("del", channel, limit)).thenApply(reply -> null);
    }

    @Override
    public CompletionStage<Map<String, String>> readAll() {
        return run(List.of("get")).thenApply(reply -> {
            Map<String, String> overrides = new LinkedHashMap<>();
            for (int i = 0; i + 1 < reply.size(); i += 2) {
                overrides.put(String.valueOf(reply.get(i)), String.valueOf(reply.get(i + 1)));
            }
            return overrides;
        });
    }

    @Override
    public void listen(Runnable onChange) {
        synchronized (subscription) {
            if (subscription.get() == null) {
                subscription.set(connection.subscribe(channel, message -> onChange.run(), onChange));
            }
        }
    }

    /** Completes once this store hears of changes made elsewhere (after {@link #listen}). */
    CompletionStage<Void> listening() {
        Subscription current = subscription.get();
        return current == null ? CompletableFuture.failedFuture(new IllegalStateException("not listening"))
                : current.subscribed();
    }

    @Override
    public boolean shared() {
        return true;
    }

    @Override
    public void close() {
        Subscription current = subscription.getAndSet(null);
        if (current != null) {
            current.close();
        }
    }

    /**
     * Runs the script by digest once it is loaded: the warm-up loads it (see {@link RedisRateLimiter#warmUp()}), and
     * the reads at start-up (the first one and the one after subscribing, at once) wait for that load instead of each
     * paying a {@code NOSCRIPT} and an {@code EVAL}.
     */
    private CompletionStage<List<Object>> run(List<String> args) {
        return connection.loadOnce(List.of(SCRIPT)).thenCompose(ready -> runner.run(SCRIPT, List.of(hash), args));
    }
}
