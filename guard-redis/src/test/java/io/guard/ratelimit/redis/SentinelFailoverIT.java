package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.ratelimit.ReplicaWait;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisSentinels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 23: Guard on Redis Sentinel (1 primary, 1 replica, 3 sentinels, down-after 2 s) through Redisson's
 * sentinel configuration and Spring Data Redis's Lettuce sentinel configuration, while 4 threads take permits of a
 * FAIL_CLOSED limit: a requested failover ({@code SENTINEL FAILOVER}), the primary killed (SIGKILL), the primary
 * frozen (SIGSTOP) past down-after and resumed, and a killed primary coming back as a replica. Each run is logged
 * call by call and checked against the bounds docs/reliability.md promises:
 * <ul>
 *   <li>every decision is answered within {@link #DECISION_BOUND}, by Redis or by the failure policy (a
 *       {@link RateLimiterBackendException}): {@code guard.rate-limit.redis.timeout} ({@link #TIMEOUT}) while Redis
 *       is silent, up to {@link FailoverRateLimiter#PATIENCE} times that while other calls are still answered (the
 *       busy-client rule: during a switch the other nodes, or the old primary, still answer), plus {@link #SLACK}
 *       for a busy machine;</li>
 *   <li>decisions land on the new primary within {@link #RECOVERY} of the switch, without a restart;</li>
 *   <li>the new primary holds every spend admitted before the last moment the replica was seen in sync (never a
 *       reset of the quota); spends lost are at most those admitted after it.</li>
 * </ul>
 * Each run prints a {@code FAILOVER} line with its numbers, the source of the table in docs/reliability.md.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SentinelFailoverIT {

    /** What {@code guard.rate-limit.redis.timeout} would say. */
    static final Duration TIMEOUT = Duration.ofMillis(500);
    /** The client's own command timeout, longer than Guard's: Guard's bound is the one that holds. */
    static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(1);
    /** Room for a machine shared with other builds (load average 10-30 seen) on top of {@link #TIMEOUT}. */
    static final Duration SLACK = Duration.ofMillis(1_500);
    /** The longest a decision may take during a switch: the patience limit (4 x the timeout) plus slack. */
    static final Duration DECISION_BOUND = TIMEOUT.multipliedBy(FailoverRateLimiter.PATIENCE).plus(SLACK);
    /** Decisions reach the new primary this soon after the sentinels agree on it. */
    static final Duration RECOVERY = Duration.ofSeconds(20);
    static final int THREADS = 4;
    /** What {@code wait-for-replicas-timeout} says in the runs that wait. */
    static final Duration WAIT_FOR_REPLICAS_TIMEOUT = Duration.ofMillis(100);

    private RedisSentinels sentinels;

    enum Fault { SENTINEL_FAILOVER, KILL, FREEZE }

    @BeforeAll
    void startSentinels() {
        sentinels = RedisSentinels.start();
    }

    @AfterAll
    void stopSentinels() {
        if (sentinels != null) {
            sentinels.close();
        }
    }

    /** The next test starts from a primary and a replica in sync, whichever node is which. */
    @AfterEach
    void restore() {
        sentinels.nodes().stream().filter(DedicatedRedis::isRunning).forEach(DedicatedRedis::restoreReplication);
        DedicatedRedis primary = sentinels.primary();
        DedicatedRedis other = sentinels.other(primary);
        if (!other.isRunning()) {
            sentinels.rejoinAsReplica(other, primary);
        }
        RedisSentinels.awaitInSync(other, primary);
        sentinels.awaitHealthy();
    }

    /**
     * With {@code wait-for-replicas: 1} (the last rows), every admission granted was on the replica before it was
     * granted, so the new primary holds every one: nothing is lost, whatever the fault.
     */
    @ParameterizedTest(name = "{1} through {0}, wait-for-replicas {2}")
    @CsvSource({"redisson, SENTINEL_FAILOVER, 0", "lettuce, SENTINEL_FAILOVER, 0", "redisson, KILL, 0",
            "lettuce, KILL, 0", "redisson, FREEZE, 0", "lettuce, FREEZE, 0", "redisson, SENTINEL_FAILOVER, 1",
            "lettuce, SENTINEL_FAILOVER, 1"})
    void decisionsFollowThePolicyDuringTheSwitchThenLandOnTheNewPrimaryWithOnlyUnreplicatedSpendsLost(String client,
            Fault fault, int waitForReplicas) throws Exception {
        try (FailoverClient redis = FailoverClient.sentinel(client, sentinels, CLIENT_TIMEOUT);
             GuardOnRedis guard = new GuardOnRedis(redis.connection(), TIMEOUT)) {
            ReplicaWait wait = waitForReplicas == 0 ? ReplicaWait.NONE
                    : new ReplicaWait(waitForReplicas, WAIT_FOR_REPLICAS_TIMEOUT);
            RateLimitPolicy counter = guard.register(GuardOnRedis.counter("spent-" + client + "-" + fault + "-"
                    + waitForReplicas).withReplicaWait(wait));
            DedicatedRedis primary = sentinels.primary();
            DedicatedRedis replica = sentinels.other(primary);
            DecisionLoad load = DecisionLoad.start(guard.registry(), counter.name(), "k", THREADS,
                    Duration.ofSeconds(90));
            FailoverRun.awaitAdmissions(load, 200);

            // The sync point: every admission counted before reading the primary's offset is on the replica.
            long syncAt = System.nanoTime();
            long admittedAtSync = load.admitted();
            long primaryOffset = RedisSentinels.offset(primary);
            FailoverRun.await("the replica to reach offset " + primaryOffset,
                    () -> RedisSentinels.offset(replica) >= primaryOffset);
            long faultAt = System.nanoTime();
            switch (fault) {
                case SENTINEL_FAILOVER -> sentinels.failover();
                case KILL -> {
                    primary.kill();
                    sentinels.awaitPrimaryOtherThan(primary, RedisSentinels.WAIT);
                }
                case FREEZE -> {
                    primary.freeze();
                    sentinels.awaitPrimaryOtherThan(primary, RedisSentinels.WAIT);
                }
            }
            long switchedAt = System.nanoTime();
            if (fault == Fault.FREEZE) {
                primary.thaw(); // the sentinels demote it to a replica of the new primary (and close its clients)
            }
            long landedAt = FailoverRun.awaitSpendsGrow(guard, replica, counter, load, RECOVERY);
            if (fault == Fault.FREEZE) {
                RedisSentinels.awaitInSync(primary, replica);
            }
            FailoverRun.awaitAdmissionsSince(load, landedAt); // decisions go on being answered after the switch
            List<DecisionLoad.Call> calls = load.stop();

            FailoverRun run = new FailoverRun("sentinel", fault.name() + (wait.waits() ? " wait-for-replicas="
                    + waitForReplicas : ""), client, calls, syncAt, faultAt, switchedAt, landedAt, admittedAtSync,
                    guard.spends(replica, counter, "k"));
            run.print();
            run.assertEveryDecisionAnsweredInTime(DECISION_BOUND);
            run.assertLandedWithin(RECOVERY);
            run.assertOnlySpendsAfterTheSyncPointLost();
            if (wait.waits()) {
                assertThat(run.lost()).as("admissions granted but lost, waiting for a replica").isLessThanOrEqualTo(0);
            }
            FailoverRun.assertDecidesOnAfterwards(guard, replica, counter);
        }
    }

    /**
     * A killed primary restarted empty rejoins as a replica while decisions go on: nothing is lost, and the
     * restarted node ends up with the quota the primary holds (it synchronizes, it does not reset). Decisions go on:
     * at most a few fail over (seen: 0 with Redisson; 0-3 with Lettuce, whose master/replica connection refreshes its
     * topology when the sentinels announce the replica).
     */
    @ParameterizedTest(name = "through {0}")
    @CsvSource({"redisson", "lettuce"})
    void theOldPrimaryComingBackAsAReplicaCostsNoDecisionAndNoSpend(String client) throws Exception {
        DedicatedRedis old = sentinels.primary();
        old.kill();
        DedicatedRedis primary = sentinels.awaitPrimaryOtherThan(old, RedisSentinels.WAIT);
        try (FailoverClient redis = FailoverClient.sentinel(client, sentinels, CLIENT_TIMEOUT);
             GuardOnRedis guard = new GuardOnRedis(redis.connection(), TIMEOUT)) {
            RateLimitPolicy counter = guard.register(GuardOnRedis.counter("rejoin-" + client));
            DecisionLoad load = DecisionLoad.start(guard.registry(), counter.name(), "k", THREADS,
                    Duration.ofSeconds(60));
            FailoverRun.awaitAdmissions(load, 200);
            long admittedAtSync = load.admitted();
            long faultAt = System.nanoTime();
            sentinels.rejoinAsReplica(old, primary);
            long backAt = System.nanoTime();
            FailoverRun.awaitAdmissionsSince(load, backAt);
            List<DecisionLoad.Call> calls = load.stop();

            assertThat(sentinels.primary()).as("still the primary: no failover meanwhile").isSameAs(primary);
            FailoverRun run = new FailoverRun("sentinel", "OLD_PRIMARY_REJOINS", client, calls, faultAt, faultAt,
                    backAt, backAt, admittedAtSync, guard.spends(primary, counter, "k"));
            run.print();
            run.assertEveryDecisionAnsweredInTime(DECISION_BOUND);
            assertThat(run.failed()).as("decisions failed while the old primary rejoined")
                    .isLessThanOrEqualTo(2 * THREADS);
            assertThat(run.lost()).as("spends lost").isLessThanOrEqualTo(0);
            RedisSentinels.awaitInSync(old, primary);
            assertThat(guard.spends(old, counter, "k")).as("the rejoined node has the quota, not an empty one")
                    .isEqualTo(guard.spends(primary, counter, "k")).isPositive();
        }
    }

    /**
     * The one case where a failover loses spends, made deterministic: with a quota of 2 per hour, the 1st spend
     * reaches the replica; then the replica's link is cut ({@link DedicatedRedis#cutReplication()}), so the 2nd
     * reaches only the primary, the 3rd call is refused and that refusal remembered in process (the 4th is answered
     * from memory). The primary is killed; the replica is promoted without the 2nd spend.
     * <p>Without {@code wait-for-replicas}, the new primary admits exactly that 1 spend again (the bytes the replica
     * lacked, measured by the replication offsets) and refuses the next: over-admission is the unreplicated spends,
     * not a new quota. With {@code wait-for-replicas: 1}, the 2nd admission is not granted (its WAIT counts 0
     * replicas, so FAIL_CLOSED answers it) and nothing is over-admitted: 2 granted in all, the rate.
     * <p>Rule for refusals remembered in process: kept across a failover as otherwise, for their {@code retryAfter}
     * and 1 s at most ({@link RefusalCache#MAX_TRUST_MICROS}), and dropped at once when the reset subscription is
     * made again. A remembered refusal never admits anything; the worst it does after lost spends is refuse for up
     * to 1 s what the new primary would admit, and a failover takes longer than that, so Redis decides again.
     */
    @ParameterizedTest(name = "through {0}, wait-for-replicas {1}")
    @CsvSource({"redisson, 0", "lettuce, 0", "redisson, 1", "lettuce, 1"})
    void spendsNotYetReplicatedAreTheOnlyOnesLostUnlessTheLimitWaitsForAReplica(String client, int waitForReplicas)
            throws Exception {
        try (FailoverClient redis = FailoverClient.sentinel(client, sentinels, CLIENT_TIMEOUT);
             GuardOnRedis guard = new GuardOnRedis(redis.connection(), TIMEOUT)) {
            ReplicaWait wait = waitForReplicas == 0 ? ReplicaWait.NONE
                    : new ReplicaWait(waitForReplicas, WAIT_FOR_REPLICAS_TIMEOUT);
            RateLimitPolicy policy = guard.register(FailoverRun.twoPerHour("two-" + client + "-" + waitForReplicas)
                    .withReplicaWait(wait));
            FailoverRun.awaitWarmUp(guard, policy);
            DedicatedRedis primary = sentinels.primary();
            DedicatedRedis replica = sentinels.other(primary);
            assertThat(guard.registry().tryAcquire(policy.name(), "k", 1).allowed()).isTrue();
            RedisSentinels.awaitInSync(replica, primary);

            replica.cutReplication();
            long replicaOffset = RedisSentinels.offset(replica);
            long granted = 1;
            if (wait.waits()) {
                assertThatThrownBy(() -> guard.registry().tryAcquire(policy.name(), "k", 1))
                        .as("an admission no replica acknowledged is answered by FAIL_CLOSED")
                        .isInstanceOf(RateLimiterBackendException.class).hasStackTraceContaining("0 of 1 replicas");
            } else {
                assertThat(guard.registry().tryAcquire(policy.name(), "k", 1).allowed()).isTrue();
                granted++;
            }
            assertThat(guard.registry().tryAcquire(policy.name(), "k", 1).allowed()).as("the quota is spent").isFalse();
            long sentBefore = guard.redis().batchesSent();
            assertThat(guard.registry().tryAcquire(policy.name(), "k", 1).allowed()).isFalse();
            assertThat(guard.redis().batchesSent()).as("the 4th call answered by the remembered refusal")
                    .isEqualTo(sentBefore);
            long unreplicatedBytes = RedisSentinels.offset(primary) - replicaOffset;
            primary.kill();
            long switchStart = System.nanoTime();
            sentinels.awaitPrimaryOtherThan(primary, RedisSentinels.WAIT);
            long switchMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - switchStart);

            if (wait.waits()) {
                assertThatThrownBy(() -> guard.registry().tryAcquire(policy.name(), "alone", 1))
                        .as("no replica left to acknowledge: admissions follow FAIL_CLOSED until one is back")
                        .isInstanceOf(RateLimiterBackendException.class);
                sentinels.rejoinAsReplica(primary, replica);
            }
            long sentAfterSwitch = guard.redis().batchesSent();
            FailoverRun.await("a decision by the new primary", () -> {
                guard.registry().tryAcquire(policy.name(), "probe", 1);
                return guard.spends(replica, policy, "probe") > 0;
            });
            assertThat(guard.spends(replica, policy, "k")).as("spends the new primary holds").isEqualTo(1);
            assertThat(guard.registry().tryAcquire(policy.name(), "k", 1).allowed())
                    .as("the new primary admits up to the rate again").isTrue();
            granted++;
            assertThat(guard.redis().batchesSent()).as("decided by Redis, not by the remembered refusal")
                    .isGreaterThan(sentAfterSwitch);
            assertThat(guard.registry().tryAcquire(policy.name(), "k", 1).allowed())
                    .as("and no more: the quota was not reset").isFalse();
            System.out.printf("FAILOVER | sentinel | UNREPLICATED_SPEND wait-for-replicas=%d | %s | switch %d ms | "
                    + "replica lacked %d bytes | granted %d of a rate of 2: over-admission %d |%n", waitForReplicas,
                    client, switchMillis, unreplicatedBytes, granted, granted - 2);
            assertThat(unreplicatedBytes).as("bytes the replica lacked").isPositive();
            assertThat(granted - 2).as("over-admission").isEqualTo(wait.waits() ? 0 : 1);
        }
    }

    /**
     * Two application instances, one on each client, share one quota (10 per hour) across a killed primary: 6
     * spent before the crash (and replicated), then both go on until refused. Between them they are granted exactly
     * 10 at most (a decision that timed out during the switch may have spent one without granting it), and the new
     * primary holds 10: it kept the 6, and neither instance got a quota of its own.
     */
    @Test
    void twoInstancesShareOneQuotaAcrossAKilledPrimary() throws Exception {
        try (FailoverClient redisson = FailoverClient.sentinel("redisson", sentinels, CLIENT_TIMEOUT);
             FailoverClient lettuce = FailoverClient.sentinel("lettuce", sentinels, CLIENT_TIMEOUT);
             GuardOnRedis first = new GuardOnRedis(redisson.connection(), TIMEOUT);
             GuardOnRedis second = new GuardOnRedis(lettuce.connection(), TIMEOUT)) {
            RateLimitPolicy policy = new RateLimitPolicy("shared", Algorithm.FIXED_WINDOW, 10,
                    Duration.ofHours(1), 0, Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED);
            List<GuardOnRedis> instances = List.of(first, second);
            instances.forEach(instance -> instance.register(policy));
            int granted = 0;
            for (int i = 0; i < 6; i++) {
                GuardOnRedis instance = instances.get(i % 2);
                FailoverRun.await("a decision", () -> instance.registry().tryAcquire(policy.name(), "warm-up", 1)
                        .allowed());
                assertThat(instance.registry().tryAcquire(policy.name(), "shared", 1).allowed()).isTrue();
                granted++;
            }
            DedicatedRedis primary = sentinels.primary();
            RedisSentinels.awaitInSync(sentinels.other(primary), primary);
            primary.kill();
            DedicatedRedis next = sentinels.awaitPrimaryOtherThan(primary, RedisSentinels.WAIT);

            int[] refusals = new int[2];
            for (int round = 0; refusals[0] == 0 || refusals[1] == 0; round++) {
                assertThat(round).as("rounds until both instances are refused").isLessThan(100);
                for (int i = 0; i < 2; i++) {
                    GuardOnRedis instance = instances.get(i);
                    boolean[] allowed = new boolean[1];
                    FailoverRun.await("a decision by the new primary", () -> {
                        allowed[0] = instance.registry().tryAcquire(policy.name(), "shared", 1).allowed();
                        return true;
                    });
                    if (allowed[0]) {
                        granted++;
                    } else {
                        refusals[i]++;
                    }
                }
            }
            System.out.printf("FAILOVER | sentinel | TWO_INSTANCES_ONE_QUOTA | redisson + lettuce | granted %d of a "
                    + "rate of 10 (6 before the crash) |%n", granted);
            assertThat(granted).as("granted between the two instances, before and after the crash")
                    .isBetween(7, 10);
            assertThat(first.spends(next, policy, "shared")).as("spends on the new primary").isEqualTo(10);
        }
    }
}
