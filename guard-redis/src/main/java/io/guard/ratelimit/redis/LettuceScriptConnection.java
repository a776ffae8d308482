package io.guard.ratelimit.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Runs Guard's scripts through Lettuce, the client behind Spring Data Redis's default connection factory. Guard
 * opens one connection of its own from the factory's client (same servers, credentials, TLS and timeouts) and hands
 * each batch to it in one {@code dispatch}, which writes the commands and flushes once; on a cluster connection
 * Lettuce routes each command to the node owning its key's slot, following redirects as for any command.
 */
public final class LettuceScriptConnection extends ScriptConnection {

    private static final RedisCodec<String, String> CODEC = StringCodec.UTF8;

    private final StatefulConnection<String, String> connection;
    private final StatefulRedisClusterConnection<String, String> cluster;
    private final Duration timeout;

    private LettuceScriptConnection(StatefulConnection<String, String> connection, Duration timeout) {
        this.connection = connection;
        this.timeout = timeout;
        this.cluster = connection instanceof StatefulRedisClusterConnection<String, String> c ? c : null;
    }

    /**
     * Opens a connection with the client of {@code factory}, which must be started. Each call times out after the
     * factory's command timeout ({@code spring.data.redis.timeout}), as Spring Data's own commands do.
     *
     * @throws IllegalArgumentException if the factory is not Lettuce's (Guard does not drive Jedis)
     */
    public static LettuceScriptConnection of(RedisConnectionFactory factory) {
        Objects.requireNonNull(factory, "factory");
        if (!(factory instanceof LettuceConnectionFactory lettuce)) {
            throw new IllegalArgumentException("Guard's Redis backend runs on Spring Data Redis with Lettuce only, "
                    + "but the RedisConnectionFactory is a " + factory.getClass().getName()
                    + "; use Lettuce (Spring Boot's default) or a RedissonClient");
        }
        return of(lettuce.getRequiredNativeClient(), lettuce.getClientConfiguration().getCommandTimeout());
    }

    /**
     * Opens a connection with {@code client}, a {@link RedisClient} or a {@link RedisClusterClient}; each call fails
     * with a {@link java.util.concurrent.TimeoutException} when not answered within {@code timeout}.
     */
    public static LettuceScriptConnection of(AbstractRedisClient client, Duration timeout) {
        Objects.requireNonNull(client, "client");
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("Redis command timeout must be positive but was " + timeout);
        }
        if (client instanceof RedisClusterClient clusterClient) {
            return new LettuceScriptConnection(clusterClient.connect(CODEC), timeout);
        }
        if (client instanceof RedisClient single) {
            return new LettuceScriptConnection(single.connect(CODEC), timeout);
        }
        throw new IllegalArgumentException("unsupported Lettuce client " + client.getClass().getName());
    }

    @Override
    void send(List<ScriptCall> calls) {
        List<RedisCommand<String, String, ?>> commands = new ArrayList<>(calls.size());
        for (ScriptCall call : calls) {
            AsyncCommand<String, String, List<Object>> command = new AsyncCommand<>(command(call));
            // Lettuce does not time commands out unless its TimeoutOptions say so; Guard's calls always are.
            command.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS).whenComplete((reply, error) -> {
                if (error == null) {
                    call.reply().complete(reply);
                } else {
                    call.reply().completeExceptionally(error);
                }
            });
            commands.add(command);
        }
        connection.dispatch(commands);
    }

    private static Command<String, String, List<Object>> command(ScriptCall call) {
        CommandArgs<String, String> args = new CommandArgs<>(CODEC)
                .add(call.byDigest() ? call.script().sha() : call.script().source())
                .add(call.keys().size())
                .addKeys(call.keys())
                .addValues(call.args());
        return new Command<>(call.byDigest() ? CommandType.EVALSHA : CommandType.EVAL, new NestedMultiOutput<>(CODEC),
                args);
    }

    @Override
    Object laneOf(String routingKey) {
        if (cluster == null) {
            return this;
        }
        RedisClusterNode owner = cluster.getPartitions().getPartitionBySlot(SlotHash.getSlot(routingKey));
        return owner == null ? this : owner.getNodeId();
    }

    @Override
    public String clientName() {
        return "lettuce";
    }

    /** Closes the connection Guard opened; the factory and its client stay as they are. */
    @Override
    public void close() {
        connection.close();
    }
}
