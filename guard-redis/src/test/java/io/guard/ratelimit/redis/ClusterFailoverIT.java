package io.guard.ratelimit.redis;

import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.ratelimit.ReplicaWait;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 23: Guard on a 3-master Redis Cluster with one replica each (node timeout 2 s), through Redisson's cluster
 * configuration and Spring Data Redis's Lettuce cluster configuration (adaptive and periodic topology refresh), while
 * 4 threads take permits of a FAIL_CLOSED limit on 6 keys spread over the masters: one master fails over on request
 * ({@code CLUSTER FAILOVER} on its replica, which then owns the slots: the old master answers {@code MOVED}) or is
 * killed (SIGKILL; its replica is elected after the node timeout). Checked as in {@link SentinelFailoverIT}, for the
 * key on the failed master: every decision answered within the patience limit plus slack (so nothing is stuck: batches to
 * the failed node fail per policy, the load threads end), decisions land on the new master without a restart, and
 * spends lost are at most those admitted after the last moment the replica was seen in sync.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterFailoverIT {

    private static final Duration NODE_TIMEOUT = Duration.ofSeconds(2);
    private static final List<String> KEYS = List.of("k", "a", "b", "c", "d", "e");

    private RedisCluster cluster;

    enum Fault { CLUSTER_FAILOVER, KILL_MASTER }

    @BeforeAll
    void startCluster() {
        cluster = RedisCluster.start(3, 1, NODE_TIMEOUT);
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void restore() {
        cluster.nodes().stream().filter(node -> !node.isRunning()).forEach(cluster::rejoin);
    }

    @ParameterizedTest(name = "{1} through {0}")
    @CsvSource({"redisson, CLUSTER_FAILOVER", "lettuce, CLUSTER_FAILOVER", "redisson, KILL_MASTER",
            "lettuce, KILL_MASTER"})
    void decisionsFollowThePolicyWhileAMasterFailsThenLandOnItsReplica(String client, Fault fault) throws Exception {
        try (FailoverClient redis = FailoverClient.cluster(client, cluster, SentinelFailoverIT.CLIENT_TIMEOUT);
             GuardOnRedis guard = new GuardOnRedis(redis.connection(), SentinelFailoverIT.TIMEOUT)) {
            RateLimitPolicy counter = guard.register(GuardOnRedis.counter("spent-" + client + "-" + fault));
            DedicatedRedis master = cluster.masterOf(guard.redis().keys(counter, "k").get(0));
            DedicatedRedis replica = cluster.replicasOf(master).get(0);
            DecisionLoad load = DecisionLoad.start(guard.registry(), counter.name(), KEYS, SentinelFailoverIT.THREADS,
                    Duration.ofSeconds(90));
            FailoverRun.awaitAdmissions(load, 300);

            long syncAt = System.nanoTime();
            long admittedAtSync = load.admitted("k");
            long masterOffset = Long.parseLong(master.info("replication").get("master_repl_offset"));
            FailoverRun.await("the replica to reach offset " + masterOffset, () -> Long.parseLong(
                    replica.info("replication").get("master_repl_offset")) >= masterOffset);
            long faultAt = System.nanoTime();
            if (fault == Fault.CLUSTER_FAILOVER) {
                cluster.failover(master);
            } else {
                master.kill();
                cluster.awaitPromotionAfter(master, List.of(replica));
            }
            long switchedAt = System.nanoTime();
            long landedAt = FailoverRun.awaitSpendsGrow(guard, replica, counter, load, SentinelFailoverIT.RECOVERY);
            FailoverRun.awaitAdmissionsSince(load, landedAt); // decisions go on being answered after the switch
            List<DecisionLoad.Call> calls = load.stop();

            List<DecisionLoad.Call> onFailedMaster = calls.stream().filter(call -> call.key().equals("k")).toList();
            List<DecisionLoad.Call> elsewhere = calls.stream().filter(call -> !call.key().equals("k")).toList();
            FailoverRun run = new FailoverRun("cluster", fault.name(), client, onFailedMaster, syncAt, faultAt,
                    switchedAt, landedAt, admittedAtSync, guard.spends(replica, counter, "k"));
            run.print();
            long failedElsewhere = elsewhere.stream().filter(call -> call.start() >= syncAt && call.error() != null)
                    .count();
            System.out.printf("FAILOVER | cluster | %s | %s | keys on the other masters: %d of %d decisions failed "
                    + "over (one backend breaker for all of Redis) |%n", fault, client, failedElsewhere,
                    elsewhere.stream().filter(call -> call.start() >= syncAt).count());
            run.assertEveryDecisionAnsweredInTime(SentinelFailoverIT.DECISION_BOUND);
            new FailoverRun("cluster", fault.name(), client, elsewhere, syncAt, faultAt, switchedAt, landedAt, 0, 0)
                    .assertEveryDecisionAnsweredInTime(SentinelFailoverIT.DECISION_BOUND);
            run.assertLandedWithin(SentinelFailoverIT.RECOVERY);
            run.assertOnlySpendsAfterTheSyncPointLost();
            FailoverRun.assertDecidesOnAfterwards(guard, replica, counter);
            for (String key : KEYS) {
                DedicatedRedis owner = cluster.masterOf(guard.redis().keys(counter, key).get(0));
                assertThat(guard.spends(owner, counter, key)).as("spends of key %s on its master", key).isPositive();
            }
        }
    }

    /**
     * {@code wait-for-replicas: 1} on a cluster: the WAIT goes to the master that ran the script, on the connection
     * that carried it (a WAIT anywhere else would count replicas of no write, and pass). With that master's replica
     * cut off, an admission is answered by FAIL_CLOSED and a refusal stands; with the replica back, admissions are
     * granted again.
     */
    @ParameterizedTest(name = "through {0}")
    @CsvSource({"redisson", "lettuce"})
    void anAdmissionWaitsForTheReplicaOfTheMasterThatDecidedIt(String client) {
        try (FailoverClient redis = FailoverClient.cluster(client, cluster, SentinelFailoverIT.CLIENT_TIMEOUT);
             GuardOnRedis guard = new GuardOnRedis(redis.connection(), SentinelFailoverIT.TIMEOUT)) {
            RateLimitPolicy policy = guard.register(FailoverRun.twoPerHour("waiting-" + client)
                    .withReplicaWait(new ReplicaWait(1, SentinelFailoverIT.WAIT_FOR_REPLICAS_TIMEOUT)));
            FailoverRun.awaitWarmUp(guard, policy);
            DedicatedRedis master = cluster.masterOf(guard.redis().keys(policy, "k").get(0));
            DedicatedRedis replica = cluster.replicasOf(master).get(0);
            assertThat(guard.registry().tryAcquire(policy.name(), "k", 1).allowed()).isTrue();

            replica.cutReplication();
            try {
                assertThatThrownBy(() -> guard.registry().tryAcquire(policy.name(), "k", 1))
                        .isInstanceOf(RateLimiterBackendException.class)
                        .hasStackTraceContaining("0 of 1 replicas");
                assertThat(guard.registry().tryAcquire(policy.name(), "k", 1).allowed())
                        .as("a refusal needs no replica").isFalse();
            } finally {
                replica.restoreReplication();
            }
            FailoverRun.await("the replica back in sync", () -> "up".equals(
                    replica.info("replication").get("master_link_status")));
            FailoverRun.await("an admission acknowledged again",
                    () -> guard.registry().tryAcquire(policy.name(), "other", 1).allowed());
        }
    }
}
