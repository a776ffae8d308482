package io.guard.ratelimit.redis;

import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.api.listener.StatusListener;
import org.redisson.client.codec.StringCodec;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Listens for resets ({@code reset.lua} publishes the limit's hash tag) and drops the refusals remembered for that
 * limit, so a reset on one instance reaches every instance's {@link RefusalCache}. Subscribes without waiting: a
 * limiter starts even while Redis is down, and Redisson subscribes again after a reconnect. Each subscription after
 * the first clears the whole cache, since resets sent while it was down were missed.
 */
final class ResetListener {

    private final RTopic topic;
    private final CompletableFuture<Integer> messages;
    private final CompletableFuture<Integer> status;
    private final CompletableFuture<Void> subscribed = new CompletableFuture<>();

    private ResetListener(RedissonClient redisson, String channel, RefusalCache refusals) {
        this.topic = redisson.getTopic(channel, StringCodec.INSTANCE);
        this.status = topic.addListenerAsync(new StatusListener() {
            @Override
            public void onSubscribe(String name) {
                // A subscription again after a disconnect: resets sent meanwhile were missed.
                if (!subscribed.complete(null)) {
                    refusals.clear();
                }
            }

            @Override
            public void onUnsubscribe(String name) {
            }
        }).toCompletableFuture();
        this.messages = topic.addListenerAsync(String.class, (name, tag) -> refusals.forget(tag))
                .toCompletableFuture();
    }

    static ResetListener subscribe(RedissonClient redisson, String channel, RefusalCache refusals) {
        return new ResetListener(redisson, channel, refusals);
    }

    CompletionStage<Void> subscribed() {
        return subscribed;
    }

    void close() {
        status.thenAccept(topic::removeListenerAsync);
        messages.thenAccept(topic::removeListenerAsync);
    }
}
