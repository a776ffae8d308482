package io.guard.ratelimit;

import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Where run-time overrides of limits (a rate, interval, algorithm or shadow mode set by an operator) are kept, so
 * that every instance sharing the store applies the same override. The Redis backend keeps them in one hash next to
 * the quotas and tells the other instances through pub/sub; in process they are this instance's only.
 *
 * <p>Values are opaque text to the store (the Spring layer encodes and validates them), keyed by the policy name.
 */
public interface LimitOverrideStore extends AutoCloseable {

    /** Sets (or replaces) the override of {@code limit} and tells the instances sharing the store. */
    CompletionStage<Void> put(String limit, String value);

    /** Removes the override of {@code limit}, if any, and tells the instances sharing the store. */
    CompletionStage<Void> remove(String limit);

    /** Every override, by policy name. */
    CompletionStage<Map<String, String>> readAll();

    /**
     * Runs {@code onChange} whenever an override may have changed elsewhere (a message from another instance, or a
     * subscription that was lost and made again, since messages sent meanwhile were missed). Returns at once.
     * {@code onChange} may run on the store client's I/O thread, which also carries the replies the store and the
     * limits wait for: it must not wait for the store there, but hand the re-read to a thread of its own.
     */
    void listen(Runnable onChange);

    /** Whether other instances see this store's overrides ({@code false} in process). */
    boolean shared();

    @Override
    void close();
}
