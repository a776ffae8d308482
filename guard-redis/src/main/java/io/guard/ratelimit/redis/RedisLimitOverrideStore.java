package io.guard.ratelimit.redis;

import io.guard.ratelimit.LimitOverrideStore;

import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Overrides of limits shared by every instance on one Redis and key prefix: one hash,
 * {@code <prefix>{guard-overrides}} (a hash tag no limit's keys can have: theirs always hold a {@code ':'}), changed by
 * a script that also publishes the policy name on {@code <prefix>overrides}, so that every instance re-reads at once.
 * Pub/sub may miss a message (a lost connection); {@link #listen} re-runs the listener after each re-subscription,
 * and the Spring layer re-reads periodically as well.
 */
public final class RedisLimitOverrideStore implements LimitOverrideStore {

    private final SharedHash hash;

    /**
     * @param connection runs the script and the subscription; not closed by {@link #close()}
     * @param keyPrefix  the prefix of every Guard key (as the limiter's); must not contain braces
     */
    public RedisLimitOverrideStore(ScriptConnection connection, String keyPrefix) {
        this.hash = new SharedHash(connection, keyPrefix, "guard-overrides", "overrides");
    }

    @Override
    public CompletionStage<Void> put(String limit, String value) {
        return hash.put(limit, value, limit);
    }

    @Override
    public CompletionStage<Void> remove(String limit) {
        return hash.remove(limit);
    }

    @Override
    public CompletionStage<Map<String, String>> readAll() {
        return hash.readAll();
    }

    @Override
    public void listen(Runnable onChange) {
        hash.listen(message -> onChange.run(), onChange);
    }

    /** Completes once this store hears of changes made elsewhere (after {@link #listen}). */
    CompletionStage<Void> listening() {
        return hash.listening();
    }

    @Override
    public boolean shared() {
        return true;
    }

    @Override
    public void close() {
        hash.close();
    }
}
