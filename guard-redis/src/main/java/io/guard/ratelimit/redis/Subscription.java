package io.guard.ratelimit.redis;

import java.util.concurrent.CompletionStage;

/**
 * A channel a {@link ScriptConnection} listens on for Guard (the resets every instance must hear of). Kept apart from
 * the script calls because pub/sub lives on a connection of its own in both clients, and because it outlives
 * outages: the client subscribes again after a reconnect.
 */
interface Subscription extends AutoCloseable {

    /** Completes once the channel is subscribed the first time; never fails, while Redis is down it just waits. */
    CompletionStage<Void> subscribed();

    /** Stops listening; messages still on their way are dropped. */
    @Override
    void close();
}
