package io.guard.ratelimit.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.masterreplica.MasterReplica;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConverters;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static io.guard.ratelimit.redis.LettuceScriptConnection.CODEC;

/**
 * How Guard connects through Spring Data's Lettuce factory: following the sentinels when the factory does, through
 * the factory's client with its own address otherwise, and with the address rebuilt when Guard keeps its keys in a
 * database of its own ({@link LettuceDatabaseUri}).
 */
final class LettuceFactoryConnections {

    private LettuceFactoryConnections() {
    }

    /** See {@link LettuceScriptConnection#of(org.springframework.data.redis.connection.RedisConnectionFactory, Integer)}. */
    static LettuceScriptConnection of(LettuceConnectionFactory lettuce, Integer database) {
        Duration timeout = lettuce.getClientConfiguration().getCommandTimeout();
        if (lettuce.isRedisSentinelAware() && lettuce.getRequiredNativeClient() instanceof RedisClient client) {
            RedisURI sentinels = LettuceConverters.sentinelConfigurationToRedisURI(lettuce.getSentinelConfiguration());
            sentinels.setSsl(lettuce.isUseSsl());
            if (database != null) {
                sentinels.setDatabase(database);
            }
            return followingSentinels(client, sentinels, timeout);
        }
        if (lettuce.isClusterAware()) {
            if (database != null && database != 0) {
                throw new IllegalArgumentException("Redis Cluster has only database 0, but database " + database
                        + " was asked for Guard's keys");
            }
        } else if (database != null && lettuce.getRequiredNativeClient() instanceof RedisClient single) {
            RedisURI uri = LettuceDatabaseUri.of(lettuce, database);
            return new LettuceScriptConnection(() -> CompletableFuture.completedFuture(single.connect(CODEC, uri)),
                    () -> CompletableFuture.completedFuture(single.connectPubSub(CODEC, uri)), timeout, false,
                    single.getResources().tracing());
        }
        return LettuceScriptConnection.of(lettuce.getRequiredNativeClient(), timeout);
    }

    /**
     * Through Redis Sentinel: a master/replica connection that listens to the sentinels and moves to the new primary
     * as soon as they announce it ({@code +switch-master}). A plain connection resolved through the sentinels would
     * stay on the old primary until that one closes it, which a demoted primary does only after the sentinels convert
     * it (seconds later), and a frozen one never: decisions meanwhile would fail, or be written to the old primary
     * and lost with it (issue 23, {@code SentinelFailoverIT}).
     */
    private static LettuceScriptConnection followingSentinels(RedisClient client, RedisURI sentinels,
                                                              Duration timeout) {
        return new LettuceScriptConnection(
                () -> MasterReplica.connectAsync(client, CODEC, sentinels).thenApply(connection -> connection),
                () -> CompletableFuture.completedFuture(client.connectPubSub(CODEC, sentinels)), timeout, false,
                client.getResources().tracing());
    }
}
