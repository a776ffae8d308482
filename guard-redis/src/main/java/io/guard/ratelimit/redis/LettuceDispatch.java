package io.guard.ratelimit.redis;

import io.guard.ratelimit.ReplicaWait;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.protocol.TracedCommand;
import io.lettuce.core.tracing.TraceContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What goes on the wire once {@link LettuceScriptConnection} has a connection: each call of a batch as one
 * {@code EVALSHA} (or {@code EVAL} after a {@code NOSCRIPT}) with its keys and arguments in Guard's exact UTF-8 codec,
 * handed to Lettuce in one {@code dispatch} (one write, one flush), then the {@code WAIT} that calls waiting for
 * replicas need. Each command is timed out by Guard and completes its call; a call answered otherwise first (timed out
 * above, cancelled) cancels its command, which Lettuce then drops if it has not written it yet.
 */
final class LettuceDispatch {

    static final RedisCodec<String, String> CODEC = ExactUtf8Codec.INSTANCE;

    private final Duration timeout;

    LettuceDispatch(Duration timeout) {
        this.timeout = timeout;
    }

    /** Writes {@code calls} to {@code connection}; never throws for a call's failure, which fails that call. */
    void send(StatefulConnection<String, String> connection, List<ScriptCall> calls) {
        List<RedisCommand<String, String, ?>> commands = new ArrayList<>(calls.size());
        ReplicaWait wait = ReplicaShortfall.strongest(calls);
        // The replicas the WAIT after the scripts counted, for the calls that wait for it.
        CompletableFuture<Long> acknowledged = new CompletableFuture<>();
        for (ScriptCall call : calls) {
            AsyncCommand<String, String, List<Object>> command = new AsyncCommand<>(command(call));
            // Lettuce does not time commands out unless its TimeoutOptions say so; Guard's calls always are.
            command.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS).whenComplete((reply, error) -> {
                if (error != null) {
                    call.reply().completeExceptionally(error);
                } else if (!call.replicaWait().waits()) {
                    call.reply().complete(reply);
                } else {
                    acknowledged.whenComplete((replicas, waitError) -> {
                        if (waitError != null) {
                            call.reply().completeExceptionally(waitError);
                        } else {
                            ReplicaShortfall.settle(call, reply, replicas);
                        }
                    });
                }
            });
            call.reply().whenComplete((reply, error) -> {
                if (call.reply().isCancelled()) {
                    command.cancel(); // answered by the failure policy: Lettuce drops it if it has not written it
                }
            });
            // A traced command's span is a child of the observation current where its decision was asked.
            commands.add(call.trace() instanceof TraceContext trace ? new TracedCommand<>(command, trace) : command);
        }
        if (connection instanceof StatefulRedisClusterConnection<String, String>) {
            // Lettuce routes a collection of commands on a cluster connection by waiting, on the calling thread, for
            // the connection to each command's node; one command at a time it waits for nothing. The next batch is
            // sent from the event loop that answered the last one, and for a node not connected yet (the new master
            // after a failover) that event loop would wait for itself, for good.
            commands.forEach(connection::dispatch);
        } else {
            connection.dispatch(commands);
        }
        if (wait.waits()) {
            sendWait(connection, calls.get(0).routingKey(), wait, acknowledged);
        }
    }

    /** The id of the cluster node that owns {@code routingKey}'s slot, or {@code null} while none is known. */
    static String nodeOf(StatefulRedisClusterConnection<String, String> cluster, String routingKey) {
        RedisClusterNode owner = cluster.getPartitions().getPartitionBySlot(SlotHash.getSlot(routingKey));
        return owner == null ? null : owner.getNodeId();
    }

    /**
     * {@code WAIT} after the scripts, on the connection that carried them (it counts that connection's writes): the
     * same one on a single server or Sentinel; on a cluster, the connection to the node of the batch's lane.
     */
    private void sendWait(StatefulConnection<String, String> connection, String routingKey, ReplicaWait wait,
                          CompletableFuture<Long> acknowledged) {
        AsyncCommand<String, String, Long> command = new AsyncCommand<>(new Command<>(CommandType.WAIT,
                new IntegerOutput<>(CODEC), new CommandArgs<>(CODEC).add(wait.replicas())
                .add(wait.timeout().toMillis())));
        command.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS).whenComplete((replicas, error) -> {
            if (error != null) {
                acknowledged.completeExceptionally(error);
            } else {
                acknowledged.complete(replicas);
            }
        });
        if (connection instanceof StatefulRedisClusterConnection<String, String> cluster) {
            String nodeId = nodeOf(cluster, routingKey);
            if (nodeId == null) {
                acknowledged.completeExceptionally(new IllegalStateException("no cluster node known for the batch"));
                return;
            }
            cluster.getConnectionAsync(nodeId).whenComplete((node, error) -> {
                if (error != null) {
                    acknowledged.completeExceptionally(error);
                } else {
                    node.dispatch(command);
                }
            });
        } else {
            connection.dispatch(command);
        }
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
}
