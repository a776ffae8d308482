package io.guard.ratelimit.redis;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A {@link RedisRateLimiter}'s subscription to the resets other instances send, which drop the refusals this instance
 * remembers for a limit. Made on first use rather than in the constructor: a limiter that has decided nothing
 * remembers no refusal a reset could make wrong, and the client is not asked for anything before the limiter is used
 * (start-up needs no Redis). Subscribing returns at once, even while Redis is down; each subscription after the first
 * clears every remembered refusal, since resets sent meanwhile were missed.
 */
final class ResetListener implements AutoCloseable {

    private final ScriptConnection connection;
    private final String channel;
    private final RefusalCache refusals;
    private final AtomicReference<Subscription> current = new AtomicReference<>();
    /** Others that drop what they hold for a reset limit (leases): a tag, or {@code null} when news was missed. */
    private final List<Consumer<String>> others = new CopyOnWriteArrayList<>();

    ResetListener(ScriptConnection connection, String channel, RefusalCache refusals) {
        this.connection = connection;
        this.channel = channel;
        this.refusals = refusals;
    }

    /** The subscription, made now if this is the first use. */
    Subscription subscription() {
        Subscription subscription = current.get();
        if (subscription != null) {
            return subscription;
        }
        synchronized (current) {
            if (current.get() == null) {
                current.set(connection.subscribe(channel, this::heard, this::resubscribed));
            }
            return current.get();
        }
    }

    /** Also tells {@code listener} of every reset heard (its hash tag), and {@code null} after a resubscription. */
    void alsoTell(Consumer<String> listener) {
        others.add(listener);
    }

    private void heard(String tag) {
        refusals.forget(tag);
        others.forEach(listener -> listener.accept(tag));
    }

    private void resubscribed() {
        refusals.clear();
        others.forEach(listener -> listener.accept(null));
    }

    /** Stops listening; a later use subscribes again. */
    @Override
    public void close() {
        Subscription subscription = current.getAndSet(null);
        if (subscription != null) {
            subscription.close();
        }
    }
}
