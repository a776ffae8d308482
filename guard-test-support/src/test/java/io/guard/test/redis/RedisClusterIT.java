package io.guard.test.redis;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The cluster harness on real processes: 3 masters with a replica each, a manual failover, then a crash. */
class RedisClusterIT {

    @Test
    void aReplicaTakesOverItsMastersSlotsOnRequestAndAfterACrash() {
        List<DedicatedRedis> nodes;
        try (RedisCluster cluster = RedisCluster.start(3, 1, Duration.ofMillis(1_000))) {
            nodes = cluster.nodes();
            assertThat(nodes).hasSize(6);
            assertThat(cluster.masters()).hasSize(3);
            DedicatedRedis master = cluster.masterOf("{k}");
            master.endpoint("").call("SET", "{k}", "1");
            master.endpoint("").call("WAIT", "1", "5000");

            DedicatedRedis replica = cluster.failover(master);
            assertThat(cluster.masterOf("{k}")).isSameAs(replica);
            assertThat(replica.endpoint("").call("GET", "{k}")).isEqualTo("1");
            assertThat(cluster.replicasOf(replica)).containsExactly(master);

            replica.endpoint("").call("WAIT", "1", "5000");
            replica.kill();
            DedicatedRedis promoted = cluster.awaitPromotionAfter(replica, List.of(master));
            assertThat(promoted).isSameAs(master);
            assertThat(cluster.masterOf("{k}")).isSameAs(master);
            assertThat(master.endpoint("").call("GET", "{k}")).isEqualTo("1");
            assertThat(cluster.keyCount()).isEqualTo(1);
        }
        assertThat(nodes).noneMatch(DedicatedRedis::isRunning);
    }
}
