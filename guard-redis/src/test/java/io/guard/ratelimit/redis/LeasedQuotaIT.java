package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.lease.LeaseSize;
import io.guard.ratelimit.lease.LeaseStats;
import io.guard.ratelimit.lease.LeasingRateLimiter;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leased quotas on real Redis, several instances (each a client of its own) on one hot key: what the fleet admits
 * per window, checked from a log of every admission against the bound each algorithm states
 * (docs/algorithms.md#leased-decisions); what leasing leaves unadmitted; and the leases given back or revoked.
 */
@RedisTest
class LeasedQuotaIT {

    /** Between calls of a hot loop: keeps it hot (thousands per second per thread) and bounded in count. */
    private static final Duration PAUSE = Duration.ofNanos(50_000);

    private final RedisEndpoint redis;

    LeasedQuotaIT(RedisEndpoint redis) {
        this.redis = redis;
    }

    private static RateLimitPolicy policy(String name, Algorithm algorithm, long rate, Duration interval) {
        return new RateLimitPolicy(name, algorithm, rate, interval, 0, Scope.GLOBAL, TimeSource.SERVER,
                BackendFailurePolicy.FAIL_CLOSED);
    }

    private LeasedFleet fleet(LeaseSize size, Duration maxLifetime) {
        return new LeasedFleet(redis.url(), redis.keyPrefix(), size, maxLifetime);
    }

    /** FIXED_WINDOW keeps its own guarantee exactly: at most `rate` in every aligned window, leases or not. */
    @ParameterizedTest(name = "{0} instances")
    @ValueSource(ints = {2, 4})
    void fixedWindowAdmitsAtMostTheRateInEveryWindow(int instances) throws Exception {
        long rate = 300;
        long lease = 20;
        RateLimitPolicy policy = policy("fw-hot-" + instances, Algorithm.FIXED_WINDOW, rate, Duration.ofMillis(500));
        try (LeasedFleet fleet = fleet(new LeaseSize(false, lease), LeasingRateLimiter.DEFAULT_MAX_LIFETIME)
                .start(instances)) {
            AdmissionLog log = new AdmissionLog();
            List<Thread> threads = new ArrayList<>();
            for (LeasingRateLimiter instance : fleet.instances) {
                threads.addAll(log.load(instance, policy, "hot", 2, Duration.ofSeconds(3), PAUSE, 200_000));
            }
            AdmissionLog.join(threads);
            // Counted in the windows they certainly fell in; a call that straddles a boundary is left out.
            long[] windows = log.perAlignedWindow(500_000, log.first(), 8);
            long scripts = fleet.batchesSent();
            System.out.printf("FIXED_WINDOW %d instances: %s, per window %s (last: straddling), %d batches sent,"
                    + " %.1f decisions per batch%n", instances, log, AdmissionLog.show(windows), scripts,
                    log.decisions.get() / (double) scripts);
            for (int w = 0; w < 8; w++) {
                assertThat(windows[w]).as("window %d of %s", w, AdmissionLog.show(windows)).isLessThanOrEqualTo(rate);
            }
            // Saturated: the limit was what stopped the fleet, so the check above could have failed.
            assertThat(max(windows, 8)).isGreaterThanOrEqualTo(rate - instances * lease);
            assertThat(log.decisions.get()).isGreaterThan(5 * scripts);
        }
    }

    /**
     * The case the hot loops above cannot reach (their quota is spent early in every window, so no lease is alive at
     * a boundary): a lease taken 50 ms before a window ends, with its lifetime (100 ms) reaching past it, is not spent
     * in the next window, which then admits its own rate and no more.
     */
    @Test
    void aFixedWindowLeaseEndsWithItsWindow() throws Exception {
        long rate = 100;
        long interval = 1_000_000;
        RateLimitPolicy policy = policy("fw-edge", Algorithm.FIXED_WINDOW, rate, Duration.ofSeconds(1));
        try (LeasedFleet fleet = fleet(new LeaseSize(false, 40), LeasingRateLimiter.DEFAULT_MAX_LIFETIME).start(1)) {
            LeasingRateLimiter instance = fleet.get(0);
            instance.tryAcquire(policy, "warm-up", 1);
            long boundary = (AdmissionLog.micros() / interval + 2) * interval; // Redis on this host: the same clock
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                    .until(() -> AdmissionLog.micros() >= boundary - 50_000);
            long taking = AdmissionLog.micros();
            assertThat(instance.tryAcquire(policy, "k", 1).allowed()).isTrue();
            long taken = AdmissionLog.micros();
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                    .until(() -> AdmissionLog.micros() >= boundary + 1_000);
            long resumed = AdmissionLog.micros();
            AdmissionLog log = new AdmissionLog();
            for (int i = 0; i < 2 * rate; i++) {
                long before = AdmissionLog.micros();
                boolean allowed = instance.tryAcquire(policy, "k", 1).allowed();
                long after = AdmissionLog.micros();
                if (allowed) {
                    log.admitted.add(new AdmissionLog.Admission(before, after));
                }
            }
            long[] windows = log.perAlignedWindow(interval, boundary, 1);
            System.out.printf("FIXED_WINDOW edge: lease taken %d..%d us before the boundary, calls from %d us after it:"
                    + " %d admitted in the window after the lease's, %d straddling, %s%n", boundary - taking,
                    boundary - taken, resumed - boundary, windows[0], windows[1], instance.stats());
            assertThat(windows[0]).isLessThanOrEqualTo(rate).isGreaterThanOrEqualTo(rate - 40);
        }
    }

    /**
     * TOKEN_BUCKET: a bucket refills while a lease is held, so in any period d the fleet admits at most
     * burst + d/T (the bucket's own bound) plus one lease per instance: the permits held when the period starts.
     */
    @ParameterizedTest(name = "{0} instances")
    @ValueSource(ints = {2, 4})
    void tokenBucketStaysWithinBurstPlusRefillPlusOneLeasePerInstance(int instances) throws Exception {
        long rate = 400;
        long lease = 20;
        Duration interval = Duration.ofSeconds(1);
        RateLimitPolicy policy = policy("tb-hot-" + instances, Algorithm.TOKEN_BUCKET, rate, interval);
        try (LeasedFleet fleet = fleet(new LeaseSize(false, lease), LeasingRateLimiter.DEFAULT_MAX_LIFETIME)
                .start(instances)) {
            AdmissionLog log = new AdmissionLog();
            List<Thread> threads = new ArrayList<>();
            for (LeasingRateLimiter instance : fleet.instances) {
                threads.addAll(log.load(instance, policy, "hot", 2, Duration.ofSeconds(4), PAUSE, 200_000));
            }
            AdmissionLog.join(threads);
            long bound = policy.burst() + rate + instances * lease; // d = interval: burst + d/T + one lease each
            long most = log.mostInAnyWindow(interval.toNanos() / 1000);
            long span = log.admitted.stream().mapToLong(AdmissionLog.Admission::after).max().orElseThrow()
                    - log.first();
            long total = log.admitted.size();
            long totalBound = policy.burst() + span * rate / 1_000_000 + 1 + instances * lease;
            System.out.printf("TOKEN_BUCKET %d instances: %s, most in any 1 s: %d (bound %d), total %d over %d us"
                    + " (bound %d), %d batches sent%n", instances, log, most, bound, total, span, totalBound,
                    fleet.batchesSent());
            assertThat(most).isLessThanOrEqualTo(bound);
            assertThat(total).isLessThanOrEqualTo(totalBound);
            assertThat(total).as("saturated").isGreaterThanOrEqualTo(span * rate / 1_000_000 - instances * lease);
        }
    }

    /**
     * Under-admission with two instances at very different rates: one hammering the key, one at 50 calls per second.
     * Per window the fleet admits the whole rate but for the permits left in leases when the window ends: at most
     * one automatic lease (a tenth of the rate) per instance.
     */
    @Test
    void twoInstancesAtVeryDifferentRatesLeaveLittleUnadmitted() throws Exception {
        long rate = 100;
        RateLimitPolicy policy = policy("fw-uneven", Algorithm.FIXED_WINDOW, rate, Duration.ofSeconds(1));
        try (LeasedFleet fleet = fleet(LeaseSize.AUTO, LeasingRateLimiter.DEFAULT_MAX_LIFETIME).start(2)) {
            AdmissionLog hot = new AdmissionLog();
            AdmissionLog slow = new AdmissionLog();
            List<Thread> threads = new ArrayList<>(hot.load(fleet.get(0), policy, "k", 3, Duration.ofSeconds(5),
                    PAUSE, 200_000));
            threads.addAll(slow.load(fleet.get(1), policy, "k", 1, Duration.ofSeconds(5), Duration.ofMillis(20),
                    1_000));
            AdmissionLog.join(threads);
            AdmissionLog both = new AdmissionLog();
            both.admitted.addAll(hot.admitted);
            both.admitted.addAll(slow.admitted);
            long[] windows = both.perAlignedWindow(1_000_000, both.first(), 5);
            System.out.printf("uneven: hot %s, slow %s, per window %s, leases hot %s slow %s%n", hot, slow,
                    AdmissionLog.show(windows), fleet.get(0).stats(), fleet.get(1).stats());
            long cap = rate / 10;
            for (int w = 1; w < 4; w++) { // the first and last windows are partial
                assertThat(windows[w] + windows[5]).as("window %d of %s", w, AdmissionLog.show(windows))
                        .isGreaterThanOrEqualTo(rate - 2 * cap);
                assertThat(windows[w]).isLessThanOrEqualTo(rate);
            }
            assertThat(slow.admitted).isNotEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"TOKEN_BUCKET", "FIXED_WINDOW"})
    void anInstanceThatStopsGivesItsLeaseBack(Algorithm algorithm) throws Exception {
        RateLimitPolicy policy = policy("close-" + algorithm, algorithm, 100, Duration.ofSeconds(60));
        try (LeasedFleet fleet = fleet(new LeaseSize(false, 30), LeasingRateLimiter.DEFAULT_MAX_LIFETIME).start(1)) {
            assertThat(fleet.get(0).tryAcquire(policy, "k", 1).allowed()).isTrue();
            assertThat(fleet.remaining(policy, "k")).isEqualTo(70);
            fleet.close(0);
            assertThat(fleet.remaining(policy, "k")).isEqualTo(99);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"TOKEN_BUCKET", "FIXED_WINDOW"})
    void anExpiredLeaseGoesBackToTheQuota(Algorithm algorithm) throws Exception {
        RateLimitPolicy policy = policy("expiry-" + algorithm, algorithm, 100, Duration.ofSeconds(60));
        try (LeasedFleet fleet = fleet(new LeaseSize(false, 30), Duration.ofMillis(200)).start(1)) {
            assertThat(fleet.get(0).tryAcquire(policy, "k", 1).allowed()).isTrue();
            assertThat(fleet.get(0).tryAcquire(policy, "k", 1).allowed()).isTrue();
            assertThat(fleet.remaining(policy, "k")).isEqualTo(70);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                assertThat(fleet.remaining(policy, "k")).isEqualTo(98);
                assertThat(fleet.get(0).stats()).isEqualTo(new LeaseStats(1, 28, 0, 0, 1));
            });
        }
    }

    /** A reset anywhere drops the leases every instance holds for the key: none is spent after it. */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"TOKEN_BUCKET", "FIXED_WINDOW"})
    void aResetRevokesTheLeasesOfEveryInstance(Algorithm algorithm) throws Exception {
        RateLimitPolicy policy = policy("reset-" + algorithm, algorithm, 100, Duration.ofSeconds(60));
        try (LeasedFleet fleet = fleet(new LeaseSize(false, 10), LeasingRateLimiter.DEFAULT_MAX_LIFETIME).start(2)) {
            assertThat(fleet.get(0).tryAcquire(policy, "k", 1).allowed()).isTrue();
            assertThat(fleet.get(1).tryAcquire(policy, "k", 1).allowed()).isTrue();
            assertThat(fleet.remaining(policy, "k")).isEqualTo(80);
            fleet.get(0).reset(policy, "k").toCompletableFuture().join();
            await().atMost(Duration.ofSeconds(20)).until(() -> fleet.get(1).stats().permitsHeld() == 0);
            assertThat(fleet.get(0).stats().permitsHeld()).isZero();
            assertThat(fleet.get(1).tryAcquire(policy, "k", 1).allowed()).isTrue();
            assertThat(fleet.remaining(policy, "k")).as("a new lease, not the revoked one").isEqualTo(90);
        }
    }

    /** A limit changed live: the next call carries the new policy, and the lease of the old one is not spent. */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"TOKEN_BUCKET", "FIXED_WINDOW"})
    void aChangedLimitRevokesTheLease(Algorithm algorithm) throws Exception {
        RateLimitPolicy before = policy("change-" + algorithm, algorithm, 100, Duration.ofSeconds(60));
        RateLimitPolicy after = before.withRate(50);
        try (LeasedFleet fleet = fleet(new LeaseSize(false, 10), LeasingRateLimiter.DEFAULT_MAX_LIFETIME).start(1)) {
            assertThat(fleet.get(0).tryAcquire(before, "k", 1).allowed()).isTrue();
            assertThat(fleet.get(0).tryAcquire(after, "k", 1).allowed()).isTrue();
            LeaseStats stats = fleet.get(0).stats();
            assertThat(stats.leasesTaken()).isEqualTo(2);
            assertThat(stats.permitsHeld()).isEqualTo(9);
            // A fixed window's unused permits go back into their window; a bucket's are dropped (its step changed).
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(fleet.get(0).stats())
                    .extracting(LeaseStats::permitsReturned, LeaseStats::permitsExpired)
                    .containsExactly(algorithm == Algorithm.FIXED_WINDOW ? 9L : 0L,
                            algorithm == Algorithm.FIXED_WINDOW ? 0L : 9L));
        }
    }

    private static long max(long[] values, int count) {
        long max = 0;
        for (int i = 0; i < count; i++) {
            max = Math.max(max, values[i]);
        }
        return max;
    }
}
