package io.guard.test.redis;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Sentinel and Cluster deployments from the binary shipped in embedded-redis alone, what a machine with only a
 * JDK and Maven has: sentinels are {@code redis-server --sentinel} and the cluster is formed without
 * {@code redis-cli}, whatever is installed on this machine.
 */
class EmbeddedBinaryDeploymentsIT {

    @Test
    void sentinelsFailOverWithTheEmbeddedBinary() {
        RedisBinary embedded = RedisBinary.embedded();
        try (RedisSentinels sentinels = RedisSentinels.start(embedded)) {
            String sentinel = sentinels.sentinelAddresses().get(0);
            Map<String, String> server = Info.parse((String) Resp.call("127.0.0.1",
                    Integer.parseInt(sentinel.substring(sentinel.lastIndexOf(':') + 1)), null, "INFO", "server"));
            assertThat(server).containsEntry("redis_mode", "sentinel")
                    .containsEntry("executable", embedded.path().toAbsolutePath().toString());
            DedicatedRedis first = sentinels.primary();
            first.endpoint("").call("SET", "k", "1");
            RedisSentinels.awaitInSync(sentinels.other(first), first);

            DedicatedRedis second = sentinels.failover();

            assertThat(second).isNotSameAs(first);
            assertThat(second.endpoint("").call("GET", "k")).isEqualTo("1");
        }
    }

    @Test
    void aClusterFormsAndFailsOverWithTheEmbeddedBinary() {
        try (RedisCluster cluster = RedisCluster.start(RedisBinary.embedded(), 2, 1, Duration.ofSeconds(2))) {
            assertThat(cluster.nodes()).hasSize(4).allMatch(node -> node.endpoint("").source()
                    == RedisSource.EMBEDDED_BINARY);
            assertThat(cluster.masters()).hasSize(2);
            DedicatedRedis master = cluster.masterOf("{k}");
            master.endpoint("").call("SET", "{k}", "1");

            DedicatedRedis replica = cluster.failover(master);

            assertThat(cluster.masterOf("{k}")).isSameAs(replica);
            assertThat(replica.endpoint("").call("GET", "{k}")).isEqualTo("1");
        }
    }
}
