package io.guard.ratelimit.local;

import io.guard.ratelimit.LimitOverrideStore;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Overrides kept in this process, for the in-process backend: its quotas are per instance, so are its overrides.
 */
public final class LocalLimitOverrideStore implements LimitOverrideStore {

    private final Map<String, String> overrides = new ConcurrentHashMap<>();

    @Override
    public CompletionStage<Void> put(String limit, String value) {
        overrides.put(limit, value);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Void> remove(String limit) {
        overrides.remove(limit);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Map<String, String>> readAll() {
        return CompletableFuture.completedFuture(Map.copyOf(overrides));
    }

    /** Nobody else writes here: nothing to listen for. */
    @Override
    public void listen(Runnable onChange) {
    }

    @Override
    public boolean shared() {
        return false;
    }

    @Override
    public void close() {
    }
}
