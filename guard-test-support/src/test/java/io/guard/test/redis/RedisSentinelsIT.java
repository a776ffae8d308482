package io.guard.test.redis;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The sentinel harness on real processes: it fails over on request, after a crash and after a freeze. */
class RedisSentinelsIT {

    @Test
    void promotesTheReplicaOnRequestAfterACrashAndAfterAFreezeAndTakesTheOldPrimaryBack() {
        DedicatedRedis first;
        List<DedicatedRedis> nodes;
        try (RedisSentinels sentinels = RedisSentinels.start()) {
            nodes = sentinels.nodes();
            first = sentinels.primary();
            assertThat(sentinels.sentinelAddresses()).hasSize(3);
            first.endpoint("").call("SET", "k", "1");
            RedisSentinels.awaitInSync(sentinels.other(first), first);

            DedicatedRedis second = sentinels.failover();
            assertThat(second).isNotSameAs(first);
            assertThat(second.endpoint("").call("GET", "k")).as("replicated before the failover").isEqualTo("1");
            RedisSentinels.awaitInSync(first, second); // the sentinels demote the old primary themselves

            second.kill();
            assertThat(sentinels.awaitPrimaryOtherThan(second, RedisSentinels.WAIT)).isSameAs(first);
            sentinels.rejoinAsReplica(second, first);
            assertThat(second.info("replication").get("role")).isEqualTo("slave");
            assertThat(second.endpoint("").call("GET", "k")).as("resynchronized after the restart").isEqualTo("1");

            first.freeze();
            assertThat(sentinels.awaitPrimaryOtherThan(first, RedisSentinels.WAIT)).isSameAs(second);
            first.thaw();
            sentinels.rejoinAsReplica(first, second);
            assertThat(RedisSentinels.offset(first)).isEqualTo(RedisSentinels.offset(second));
        }
        assertThat(nodes).noneMatch(DedicatedRedis::isRunning);
    }
}
