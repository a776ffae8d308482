package io.guard.ratelimit.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The rate-limiter contract on a 3-master Redis Cluster through Spring Data Redis's Lettuce connection factory. */
class LettuceClusterRateLimiterIT extends ClusterContract {

    private LettuceConnectionFactory factory;
    private List<String> urls;

    /**
     * A batch's reply arrives on Lettuce's event loop, and the pipeline sends the next batch from there. Lettuce
     * routes a collection of commands on a cluster connection by waiting, on the calling thread, for each node's
     * connection: for a node not connected yet (the new master after a failover) that wait is for the same event
     * loop, which then never runs again (seen as ClusterFailoverIT hanging in CI). With one I/O thread, the wait is
     * certain to be for the thread that waits.
     */
    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBatchSentFromTheEventLoopToANodeNotConnectedYetIsSent() throws Exception {
        ClientResources resources = DefaultClientResources.builder().ioThreadPoolSize(1).build();
        RedisClusterClient client = RedisClusterClient.create(resources, urls.stream().map(RedisURI::create).toList());
        try (LettuceScriptConnection connection = LettuceScriptConnection.of(client, Duration.ofSeconds(2))) {
            connection.connect().toCompletableFuture().get(10, TimeUnit.SECONDS);
            String first = "first";
            Object firstNode = connection.laneOf(first);
            List<String> elsewhere = IntStream.range(0, 1000).mapToObj(i -> "other-" + i)
                    .filter(key -> !connection.laneOf(key).equals(firstNode)).limit(2).toList();
            assertThat(SlotHash.getSlot(elsewhere.get(0))).isNotEqualTo(SlotHash.getSlot(first));
            LuaScript script = LuaScript.of("echo", "return {tonumber(ARGV[1])}");
            List<ScriptCall> later = elsewhere.stream().map(key -> new ScriptCall(script, false, List.of(key),
                    List.of("2"), new CompletableFuture<>())).toList();
            ScriptCall call = new ScriptCall(script, false, List.of(first), List.of("1"), new CompletableFuture<>());
            call.reply().thenRun(() -> connection.send(later));
            connection.send(List.of(call));
            assertThat(call.reply().get(10, TimeUnit.SECONDS)).containsExactly(1L);
            for (ScriptCall next : later) {
                assertThat(next.reply().get(10, TimeUnit.SECONDS)).as("sent from the event loop")
                        .containsExactly(2L);
            }
        } finally {
            client.shutdown(0, 5, TimeUnit.SECONDS);
            resources.shutdown(0, 5, TimeUnit.SECONDS);
        }
    }

    @Override
    protected void connect(List<String> urls) {
        this.urls = urls;
        List<String> nodes = urls.stream().map(url -> url.substring(url.indexOf("://") + 3)).toList();
        factory = new LettuceConnectionFactory(new RedisClusterConfiguration(nodes));
        factory.afterPropertiesSet();
    }

    @Override
    protected ScriptConnection scriptConnection() {
        return LettuceScriptConnection.of(factory);
    }

    @Override
    protected void disconnect() {
        if (factory != null) {
            factory.destroy();
        }
    }
}
