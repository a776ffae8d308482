package io.guard.ratelimit.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.tracing.Tracing;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs Guard's scripts through Lettuce, the client behind Spring Data Redis's default connection factory. Guard
 * opens one connection of its own from the factory's client (same servers, credentials, TLS and timeouts) and hands
 * each batch to it in one {@code dispatch} ({@link LettuceDispatch}), which writes the commands and flushes once; on
 * a cluster connection Lettuce routes each command to the node owning its key's slot, following redirects as for any
 * command. A second connection carries Guard's pub/sub (resets heard from other instances): a subscribed connection
 * can send nothing else.
 *
 * <p>Both connections are made off the caller's thread ({@link ConnectAttempts}): at start-up by the warm-up
 * ({@link #connect()}), else on first use, and again after a failed attempt, so the application starts while Redis is
 * down and no caller waits for a connect. Once made, Lettuce reconnects them by itself, but with a back-off that
 * grows to 30 s (the client's {@code reconnectDelay}): after a long outage the limits would wait up to that long
 * for Redis to be used again. So a script connection (not a cluster's) found closed for {@value #RECONNECT_AFTER_MILLIS} ms or more
 * when a batch is to be sent (the backend breaker's trial call, every 2 s while Redis is down) is replaced by a
 * fresh connect, which reaches a Redis that is back at once. The pub/sub connection is left to Lettuce: a reset
 * message missed meanwhile is made good when it subscribes again.
 */
public final class LettuceScriptConnection extends ScriptConnection {

    static final RedisCodec<String, String> CODEC = LettuceDispatch.CODEC;

    private final ConnectAttempts<StatefulConnection<String, String>> connection;
    private final ConnectAttempts<StatefulRedisPubSubConnection<String, String>> pubSub;
    private final Duration timeout;
    private final LettuceDispatch dispatch;
    private final boolean clustered;
    /** The client's tracing (Spring Boot's Micrometer observations of Lettuce commands, when it sets them up). */
    private final Tracing tracing;
    /** {@link System#nanoTime()} when the script connection was first found closed; 0 while it is open. */
    private volatile long closedSince;

    /** How long the script connection may stay closed before a batch to send replaces it. */
    static final long RECONNECT_AFTER_MILLIS = 1000;

    LettuceScriptConnection(Supplier<CompletableFuture<StatefulConnection<String, String>>> connect,
                            Supplier<CompletableFuture<StatefulRedisPubSubConnection<String, String>>>
                                    connectPubSub, Duration timeout, boolean clustered, Tracing tracing) {
        this.tracing = tracing;
        this.connection = new ConnectAttempts<>(connect);
        this.pubSub = new ConnectAttempts<>(connectPubSub);
        this.timeout = timeout;
        this.dispatch = new LettuceDispatch(timeout);
        this.clustered = clustered;
    }

    /**
     * Connects with the client of {@code factory}, which must be started, on first use. Each call times out after the
     * factory's command timeout ({@code spring.data.redis.timeout}), as Spring Data's own commands do.
     *
     * @throws IllegalArgumentException if the factory is not Lettuce's (Guard does not drive Jedis)
     */
    public static LettuceScriptConnection of(RedisConnectionFactory factory) {
        return of(factory, null);
    }

    /**
     * As {@link #of(RedisConnectionFactory)}, but Guard's connections select {@code database} (null: the factory's
     * own), so that Guard's keys live apart from the application's; pub/sub channels are the same in every database.
     *
     * @throws IllegalArgumentException if the factory is not Lettuce's, or a database other than 0 is asked of a
     *                                  cluster (which has only database 0)
     */
    public static LettuceScriptConnection of(RedisConnectionFactory factory, Integer database) {
        Objects.requireNonNull(factory, "factory");
        if (!(factory instanceof LettuceConnectionFactory lettuce)) {
            throw new IllegalArgumentException("Guard's Redis backend runs on Spring Data Redis with Lettuce only, "
                    + "but the RedisConnectionFactory is a " + factory.getClass().getName()
                    + "; use Lettuce (Spring Boot's default) or a RedissonClient");
        }
        return LettuceFactoryConnections.of(lettuce, database);
    }

    /**
     * Connects with {@code client}, a {@link RedisClient} or a {@link RedisClusterClient}, on first use; each call fails
     * with a {@link java.util.concurrent.TimeoutException} when not answered within {@code timeout}.
     */
    public static LettuceScriptConnection of(AbstractRedisClient client, Duration timeout) {
        Objects.requireNonNull(client, "client");
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("Redis command timeout must be positive but was " + timeout);
        }
        // Lettuce's asynchronous connects need a URI (RedisClient) or partitions loaded first (RedisClusterClient),
        // which the blocking ones take care of: ConnectAttempts runs these off the caller's thread.
        if (client instanceof RedisClusterClient cluster) {
            return new LettuceScriptConnection(() -> CompletableFuture.completedFuture(cluster.connect(CODEC)),
                    () -> CompletableFuture.completedFuture(cluster.connectPubSub(CODEC)), timeout, true,
                    cluster.getResources().tracing());
        }
        if (client instanceof RedisClient single) {
            return new LettuceScriptConnection(() -> CompletableFuture.completedFuture(single.connect(CODEC)),
                    () -> CompletableFuture.completedFuture(single.connectPubSub(CODEC)), timeout, false,
                    single.getResources().tracing());
        }
        throw new IllegalArgumentException("unsupported Lettuce client " + client.getClass().getName());
    }

    /** Both connections: the one for scripts and the one for pub/sub. */
    @Override
    public CompletionStage<Void> connect() {
        return CompletableFuture.allOf(connection.get(), pubSub.get());
    }

    /** On a cluster connection Lettuce sends {@code SCRIPT LOAD} to every master. */
    @Override
    CompletionStage<Void> load(List<LuaScript> scripts) {
        return connection.get().thenCompose(made -> CompletableFuture.allOf(scripts.stream()
                .map(each -> scripting(made).scriptLoad(each.source()).toCompletableFuture()
                        .orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS)
                        .thenApply(sha -> checkDigest(each, sha)))
                .toArray(CompletableFuture[]::new)));
    }

    @SuppressWarnings("unchecked")
    private static RedisScriptingAsyncCommands<String, String> scripting(StatefulConnection<String, String> made) {
        return made instanceof StatefulRedisClusterConnection<String, String> cluster ? cluster.async()
                : ((StatefulRedisConnection<String, String>) made).async();
    }

    /** The current observation where a decision is asked, when the client traces its commands. */
    @Override
    Object traceContext() {
        return tracing.isEnabled() ? tracing.initialTraceContextProvider().getTraceContext() : null;
    }

    @Override
    void send(List<ScriptCall> calls) {
        pubSub.retryIfAwaited(); // a subscription waiting for its connection tries again with each batch
        replaceIfClosedTooLong();
        connection.sendWhenConnected(calls, dispatch::send);
    }

    /**
     * See the class comment: a connection Lettuce has not brought back within a second is made afresh. Not on a
     * cluster, where Lettuce keeps a connection per node and brings each back itself. The stale connection is closed
     * without waiting: this runs where batches are sent, often on Lettuce's event loop, which a blocking close would
     * wait for.
     */
    private void replaceIfClosedTooLong() {
        if (clustered) {
            return;
        }
        StatefulConnection<String, String> made = connection.connected();
        if (made == null || made.isOpen()) {
            if (closedSince != 0) {
                closedSince = 0;
            }
            return;
        }
        long now = System.nanoTime();
        long since = closedSince;
        if (since == 0) {
            closedSince = now;
        } else if (now - since >= TimeUnit.MILLISECONDS.toNanos(RECONNECT_AFTER_MILLIS)) {
            closedSince = 0;
            connection.replace(made, StatefulConnection::closeAsync);
        }
    }

    @Override
    boolean clustered() {
        return clustered;
    }

    @Override
    Object laneOf(String routingKey) {
        if (!(connection.connected() instanceof StatefulRedisClusterConnection<String, String> cluster)) {
            return this;
        }
        String node = LettuceDispatch.nodeOf(cluster, routingKey);
        return node == null ? this : node;
    }

    /**
     * A listener on the pub/sub connection and an asynchronous {@code SUBSCRIBE}. Lettuce queues the command while
     * disconnected and subscribes again after each reconnect, announcing every subscription, the first included.
     * On a cluster, the subscription lives on one node; {@code PUBLISH} reaches every node.
     */
    @Override
    Subscription subscribe(String channel, Consumer<String> onMessage, Runnable onResubscribed) {
        CompletableFuture<Void> subscribed = new CompletableFuture<>();
        RedisPubSubAdapter<String, String> listener = new RedisPubSubAdapter<>() {
            @Override
            public void message(String from, String message) {
                if (channel.equals(from)) {
                    onMessage.accept(message);
                }
            }

            @Override
            public void subscribed(String to, long count) {
                if (channel.equals(to) && !subscribed.complete(null)) {
                    onResubscribed.run();
                }
            }
        };
        Consumer<StatefulRedisPubSubConnection<String, String>> subscribe = made -> {
            made.addListener(listener);
            made.async().subscribe(channel);
        };
        pubSub.whenConnected(subscribe);
        return new Subscription() {
            @Override
            public CompletionStage<Void> subscribed() {
                return subscribed;
            }

            @Override
            public void close() {
                pubSub.forget(subscribe);
                StatefulRedisPubSubConnection<String, String> made = pubSub.connected();
                if (made != null) {
                    made.removeListener(listener);
                    if (made.isOpen()) {
                        made.async().unsubscribe(channel);
                    }
                }
            }
        };
    }

    @Override
    public String clientName() {
        return "lettuce";
    }

    /** Closes the connections Guard opened; the factory and its client stay as they are. */
    @Override
    public void close() {
        pubSub.close(LettuceScriptConnection::closeUnlessClosed);
        connection.close(LettuceScriptConnection::closeUnlessClosed);
    }

    /**
     * Spring Data's connection factory is a lifecycle bean: on shutdown it stops, which shuts its client down and
     * closes every connection of that client, Guard's included, before the beans are destroyed. Closing them again
     * would only make Lettuce warn "Connection is already closed" once per connection (issue 24 item 0c).
     */
    private static void closeUnlessClosed(StatefulConnection<?, ?> made) {
        if (!(made instanceof RedisChannelHandler<?, ?> handler && handler.isClosed())) {
            made.close();
        }
    }
}
