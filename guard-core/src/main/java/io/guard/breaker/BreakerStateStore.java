package io.guard.breaker;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * Where the breaker states an operator set for the whole fleet (forced open, disabled, closed, reset) are kept, so
 * that every instance sharing the store applies them, and one that starts later starts in them. Breakers still decide
 * per instance; the store only carries the operators' commands. The Redis backend keeps them in one hash next to the
 * quotas and tells the other instances through pub/sub. Each instance also reports its breakers' states there, so that
 * any instance can show which instance is in which state.
 *
 * <p>Values and messages are opaque text to the store (the Spring layer encodes and validates them), keyed by the
 * breaker's name.
 */
public interface BreakerStateStore extends AutoCloseable {

    /** Keeps {@code command} as the last one for {@code breaker} and sends it to every instance sharing the store. */
    CompletionStage<Void> put(String breaker, String command);

    /** The last command of every breaker that has one, by breaker name. */
    CompletionStage<Map<String, String>> readAll();

    /**
     * Sends every command put from now on to {@code onMessage}, and runs {@code onResubscribed} whenever a
     * subscription that was lost is made again (commands sent meanwhile were missed: re-read them). Returns at once,
     * and never fails for a store that cannot be reached: it keeps trying in the background. Both may run on the
     * store client's I/O thread, which also carries the store's replies: they must not wait for the store there.
     */
    void listen(Consumer<String> onMessage, Runnable onResubscribed);

    /**
     * Keeps {@code states} (breaker name to state) as what {@code instance} reports, for {@code ttl}: an instance that
     * stops reporting drops out of {@link #reports()} once it has passed.
     */
    CompletionStage<Void> report(String instance, Map<String, String> states, Duration ttl);

    /** What every instance whose report is still alive reported, by instance name. */
    CompletionStage<Map<String, Map<String, String>>> reports();

    @Override
    void close();
}
