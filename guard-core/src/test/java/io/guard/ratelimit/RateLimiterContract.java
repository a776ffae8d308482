package io.guard.ratelimit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link RateLimiter} promises, run unchanged against each backend (the Micrometer TCK idea): a backend
 * passes by extending this class. Times are checked to the microsecond on a hand-moved client clock.
 */
public abstract class RateLimiterContract {

    /** A whole second, so fixed windows start at the test's time zero. */
    protected static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    protected MutableClock clock;
    protected RateLimiter limiter;
    private ScheduledExecutorService timer;

    /** A fresh backend reading {@code clock} for CLIENT-time policies; state must not leak between tests. */
    protected abstract RateLimiter create(Clock clock);

    /** Asserts that the backend holds no state at all (nothing was written). */
    protected abstract void assertNothingStored();

    /**
     * Whether the backend decides a group of limits all-or-nothing; one that cannot (Redis Cluster, where the limits
     * live in different slots) stops at the first refusal, leaving earlier limits' permits spent.
     */
    protected boolean decidesGroupsAtomically() {
        return true;
    }

    @BeforeEach
    void createLimiter() {
        clock = new MutableClock(T0);
        limiter = create(clock);
        timer = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterEach
    void closeLimiter() {
        limiter.close();
        timer.shutdownNow();
    }

    protected static RateLimitPolicy policy(String name, Algorithm algorithm, long rate, Duration interval) {
        return new RateLimitPolicy(name, algorithm, rate, interval, 0, Scope.GLOBAL, TimeSource.CLIENT,
                BackendFailurePolicy.FAIL_CLOSED);
    }

    private Decision take(RateLimitPolicy policy, String key, long permits) {
        return limiter.tryAcquire(policy, key, permits);
    }

    private void at(long millis) {
        clock.set(T0.plusMillis(millis));
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aGroupOfLimitsSpendsOnEveryLimitOrOnNone(Algorithm algorithm) {
        RateLimitPolicy wide = policy("group-wide-" + algorithm, algorithm, 5, Duration.ofSeconds(1));
        RateLimitPolicy narrow = policy("group-narrow-" + algorithm, Algorithm.SLIDING_LOG, 2, Duration.ofSeconds(1));
        List<RateLimitRequest> group = List.of(new RateLimitRequest(wide, "k", 1), new RateLimitRequest(narrow, "k", 1));
        for (int call = 0; call < 2; call++) {
            assertThat(limiter.decideAll(group).toCompletableFuture().join())
                    .extracting(outcome -> outcome.decision().allowed()).containsExactly(true, true);
        }
        List<BackendOutcome> third = limiter.decideAll(group).toCompletableFuture().join();
        assertThat(third.get(third.size() - 1).decision().allowed()).as("refused by the narrow limit").isFalse();
        assertThat(third.get(third.size() - 1).decision().retryAfter()).isPositive();

        long spentOnWide = decidesGroupsAtomically() ? 2 : 3;
        assertThat(take(wide, "k", 1).remaining()).as("the wide limit spent %d permits, then this one", spentOnWide)
                .isEqualTo(5 - spentOnWide - 1);
    }

    @Test
    void aGroupRefusedByItsFirstLimitSpendsNothingOnTheOthers() {
        RateLimitPolicy first = policy("group-first", Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(1));
        RateLimitPolicy second = policy("group-second", Algorithm.TOKEN_BUCKET, 3, Duration.ofSeconds(1));
        assertThat(take(first, "k", 1).allowed()).isTrue();
        List<BackendOutcome> refused = limiter.decideAll(List.of(new RateLimitRequest(first, "k", 1),
                new RateLimitRequest(second, "k", 2))).toCompletableFuture().join();
        assertThat(refused.get(0).decision().allowed()).isFalse();
        assertThat(take(second, "k", 3).allowed()).as("the second limit still has all 3").isTrue();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void allowsUpToTheRateThenRefuses(Algorithm algorithm) {
        RateLimitPolicy policy = policy("rate-" + algorithm, algorithm, 5, Duration.ofSeconds(1));
        for (int i = 4; i >= 0; i--) {
            Decision decision = take(policy, "user-1", 1);
            assertThat(decision.allowed()).isTrue();
            assertThat(decision.remaining()).isEqualTo(i);
            assertThat(decision.retryAfter()).isZero();
            assertThat(decision.limit()).isEqualTo(5);
        }
        Decision refused = take(policy, "user-1", 1);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.remaining()).isZero();
        assertThat(refused.retryAfter()).isPositive();
        assertThat(take(policy, "user-2", 1).allowed()).as("another key has its own quota").isTrue();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void retryAfterIsExactToTheMicrosecond(Algorithm algorithm) {
        RateLimitPolicy policy = policy("retry-" + algorithm, algorithm, 5, Duration.ofSeconds(1));
        at(100);
        for (int i = 0; i < 5; i++) {
            assertThat(take(policy, "k", 1).allowed()).isTrue();
        }
        Duration retryAfter = take(policy, "k", 1).retryAfter();
        Duration expected = switch (algorithm) {
            case SLIDING_LOG -> Duration.ofMillis(1000);
            case TOKEN_BUCKET -> Duration.ofMillis(200);
            case FIXED_WINDOW -> Duration.ofMillis(900);
        };
        assertThat(retryAfter).isEqualTo(expected);

        clock.advance(retryAfter.minusNanos(1000));
        Decision stillRefused = take(policy, "k", 1);
        assertThat(stillRefused.allowed()).isFalse();
        assertThat(stillRefused.retryAfter()).isEqualTo(Duration.ofNanos(1000));
        clock.advance(Duration.ofNanos(1000));
        assertThat(take(policy, "k", 1).allowed()).isTrue();
    }

    @Test
    void seedWorkedExampleHoldsExactly() {
        RateLimitPolicy policy = policy("seed", Algorithm.SLIDING_LOG, 10, Duration.ofSeconds(1));
        at(0);
        assertThat(take(policy, "k", 4).remaining()).isEqualTo(6);
        at(200);
        assertThat(take(policy, "k", 3).remaining()).isEqualTo(3);
        at(700);
        Decision last = take(policy, "k", 3);
        assertThat(last.allowed()).isTrue();
        assertThat(last.remaining()).isZero();
        assertThat(last.resetAfter()).isEqualTo(Duration.ofMillis(1000));

        at(701);
        Decision eleventh = take(policy, "k", 1);
        assertThat(eleventh.allowed()).isFalse();
        assertThat(eleventh.retryAfter()).isEqualTo(Duration.ofMillis(299));
        at(999);
        assertThat(take(policy, "k", 1).retryAfter()).isEqualTo(Duration.ofMillis(1));

        at(1000);
        assertThat(take(policy, "k", 5).allowed()).as("only 4 came back at 1000 ms").isFalse();
        Decision four = take(policy, "k", 4);
        assertThat(four.allowed()).isTrue();
        assertThat(four.remaining()).isZero();
        assertThat(take(policy, "k", 1).retryAfter()).isEqualTo(Duration.ofMillis(200));

        at(1200);
        assertThat(take(policy, "k", 4).allowed()).as("only 3 came back at 1200 ms").isFalse();
        assertThat(take(policy, "k", 3).allowed()).isTrue();
        assertThat(take(policy, "k", 1).retryAfter()).isEqualTo(Duration.ofMillis(500));

        at(1700);
        assertThat(take(policy, "k", 4).allowed()).as("only 3 came back at 1700 ms").isFalse();
        assertThat(take(policy, "k", 3).remaining()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void multiPermitRequestsAreExact(Algorithm algorithm) {
        RateLimitPolicy policy = policy("multi-" + algorithm, algorithm, 10, Duration.ofSeconds(1));
        assertThat(take(policy, "k", 4).remaining()).isEqualTo(6);
        assertThat(take(policy, "k", 4).remaining()).isEqualTo(2);
        Decision tooMany = take(policy, "k", 3);
        assertThat(tooMany.allowed()).isFalse();
        assertThat(tooMany.remaining()).as("a refusal takes nothing").isEqualTo(2);
        Decision exact = take(policy, "k", 2);
        assertThat(exact.allowed()).isTrue();
        assertThat(exact.remaining()).isZero();
    }

    @Test
    void slidingLogRetryAfterWalksRecordsSummingTheirPermits() {
        RateLimitPolicy policy = policy("walk", Algorithm.SLIDING_LOG, 10, Duration.ofSeconds(1));
        at(0);
        take(policy, "k", 3);
        at(100);
        take(policy, "k", 3);
        at(200);
        take(policy, "k", 4);
        at(300);
        assertThat(take(policy, "k", 2).retryAfter()).isEqualTo(Duration.ofMillis(700));
        assertThat(take(policy, "k", 5).retryAfter()).as("needs the first two records").isEqualTo(Duration.ofMillis(800));
        assertThat(take(policy, "k", 10).retryAfter()).isEqualTo(Duration.ofMillis(900));
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"SLIDING_LOG", "FIXED_WINDOW"})
    void aChangedRateAppliesToThePermitsAlreadyInUse(Algorithm algorithm) {
        RateLimitPolicy policy = policy("change-" + algorithm, algorithm, 10, Duration.ofSeconds(1));
        assertThat(take(policy, "k", 8).allowed()).isTrue();

        Decision lowered = take(policy.withRate(5), "k", 1);
        assertThat(lowered.allowed()).isFalse();
        assertThat(lowered.remaining()).isZero();
        assertThat(lowered.limit()).isEqualTo(5);

        RateLimitPolicy raised = policy.withRate(20);
        assertThat(take(raised, "k", 12).remaining()).isZero();
        assertThat(take(raised, "k", 1).allowed()).isFalse();
    }

    @Test
    void aShorterIntervalReleasesOlderPermitsAtOnce() {
        RateLimitPolicy policy = policy("interval", Algorithm.SLIDING_LOG, 10, Duration.ofSeconds(1));
        take(policy, "k", 10);
        at(500);
        assertThat(take(policy, "k", 1).allowed()).isFalse();
        assertThat(take(policy.withInterval(Duration.ofMillis(400)), "k", 10).allowed()).isTrue();
    }

    @Test
    void tokenBucketAllowsItsBurstThenTheLongRunRate() {
        RateLimitPolicy policy = new RateLimitPolicy("bucket", Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1), 3,
                Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_CLOSED);
        for (int i = 0; i < 3; i++) {
            assertThat(take(policy, "k", 1).allowed()).isTrue();
        }
        Decision refused = take(policy, "k", 1);
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(100));
        assertThat(refused.resetAfter()).isEqualTo(Duration.ofMillis(300));
        at(250);
        assertThat(take(policy, "k", 2).allowed()).isTrue();
        assertThat(take(policy, "k", 1).retryAfter()).isEqualTo(Duration.ofMillis(50));
        assertThatThrownBy(() -> take(policy, "k", 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bucket'").hasMessageContaining("4");
    }

    @Test
    void tokenBucketRefillsAtANewRate() {
        RateLimitPolicy policy = policy("refill", Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1));
        take(policy, "k", 10);
        RateLimitPolicy faster = policy.withRate(20);
        assertThat(take(faster, "k", 1).retryAfter()).isEqualTo(Duration.ofMillis(50));
        at(50);
        assertThat(take(faster, "k", 1).allowed()).isTrue();
    }

    @Test
    void tokenBucketWithAFractionalEmissionIntervalStaysExact() {
        RateLimitPolicy policy = policy("thirds", Algorithm.TOKEN_BUCKET, 3, Duration.ofSeconds(1));
        assertThat(take(policy, "k", 3).remaining()).isZero();
        Duration retry = take(policy, "k", 1).retryAfter();
        // One permit every 333333.33 us: the wait is that, rounded to a whole microsecond.
        assertThat(retry).isBetween(Duration.ofNanos(333_333_000), Duration.ofNanos(333_334_000));
        clock.advance(retry.minusNanos(1000));
        assertThat(take(policy, "k", 1).allowed()).isFalse();
        clock.advance(Duration.ofNanos(1000));
        assertThat(take(policy, "k", 1).allowed()).isTrue();
        at(1000);
        assertThat(take(policy, "k", 2).allowed()).isTrue();
        assertThat(take(policy, "k", 1).allowed()).isFalse();
    }

    @Test
    void fixedWindowStartsAfreshAtTheBoundary() {
        RateLimitPolicy policy = policy("fixed", Algorithm.FIXED_WINDOW, 5, Duration.ofSeconds(1));
        at(900);
        assertThat(take(policy, "k", 5).resetAfter()).isEqualTo(Duration.ofMillis(100));
        assertThat(take(policy, "k", 1).retryAfter()).isEqualTo(Duration.ofMillis(100));
        at(1000);
        assertThat(take(policy, "k", 5).allowed()).as("the documented 2x across a boundary").isTrue();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void invalidRequestsNameTheLimiterAndTheValueAndWriteNothing(Algorithm algorithm) {
        RateLimitPolicy policy = policy("orders-" + algorithm, algorithm, 5, Duration.ofSeconds(1));
        for (long permits : new long[] {0, -1, 6}) {
            assertThatThrownBy(() -> take(policy, "k", permits)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'orders-" + algorithm + "'").hasMessageContaining(Long.toString(permits));
            assertThatThrownBy(() -> limiter.tryAcquireAsync(policy, "k", permits))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertNothingStored();
    }

    @Test
    void limitersAndKeysNeverShareAQuota() {
        RateLimitPolicy ab = policy("a:b", Algorithm.SLIDING_LOG, 1, Duration.ofSeconds(1));
        RateLimitPolicy a = policy("a", Algorithm.SLIDING_LOG, 1, Duration.ofSeconds(1));
        assertThat(take(ab, "c", 1).allowed()).isTrue();
        assertThat(take(a, "b:c", 1).allowed()).as("'a:b'+'c' is not 'a'+'b:c'").isTrue();
        assertThat(take(a, "{b}:c}", 1).allowed()).isTrue();
        String longKey = "x".repeat(5_000);
        assertThat(take(a, longKey, 1).allowed()).isTrue();
        assertThat(take(a, longKey, 1).allowed()).isFalse();
        assertThat(take(a, longKey + "y", 1).allowed()).isTrue();
        assertThat(take(a, null, 1).allowed()).isTrue();
        assertThat(take(a, "", 1).allowed()).as("null and empty are the same key").isFalse();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void asyncDecidesLikeSync(Algorithm algorithm) throws Exception {
        RateLimitPolicy policy = policy("async-" + algorithm, algorithm, 2, Duration.ofSeconds(1));
        assertThat(limiter.tryAcquireAsync(policy, "k", 2).toCompletableFuture().get(5, TimeUnit.SECONDS).allowed())
                .isTrue();
        Decision refused = limiter.tryAcquireAsync(policy, "k", 1).toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused).isEqualTo(take(policy, "k", 1));
    }

    private Quota inspect(RateLimitPolicy policy, String key) {
        return limiter.inspect(policy, key).toCompletableFuture().join();
    }

    private void reset(RateLimitPolicy policy, String key) {
        limiter.reset(policy, key).toCompletableFuture().join();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void inspectShowsWhatIsLeftWithoutSpendingAnything(Algorithm algorithm) {
        RateLimitPolicy policy = policy("inspect-" + algorithm, algorithm, 5, Duration.ofSeconds(1));
        assertThat(inspect(policy, "k")).isEqualTo(new Quota(5, 5, Duration.ZERO, Duration.ZERO));
        assertNothingStored();

        take(policy, "k", 2);
        at(100);
        Quota first = inspect(policy, "k");
        Quota second = inspect(policy, "k");

        assertThat(first.remaining()).isEqualTo(3);
        assertThat(first.retryAfter()).isZero();
        assertThat(first.resetAfter()).isPositive();
        assertThat(second).as("inspecting spends nothing").isEqualTo(first);
        Decision next = take(policy, "k", 1);
        assertThat(next.allowed()).isTrue();
        assertThat(next.remaining()).isEqualTo(first.remaining() - 1);
        assertThat(inspect(policy, "other")).as("another key").isEqualTo(new Quota(5, 5, Duration.ZERO, Duration.ZERO));
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void inspectOfAnExhaustedKeyTellsWhatARefusalWould(Algorithm algorithm) {
        RateLimitPolicy policy = policy("exhausted-" + algorithm, algorithm, 5, Duration.ofSeconds(1));
        take(policy, "k", 5);
        at(100);

        Quota quota = inspect(policy, "k");
        Decision refused = take(policy, "k", 1);

        assertThat(refused.allowed()).isFalse();
        assertThat(quota).isEqualTo(new Quota(5, 0, refused.retryAfter(), refused.resetAfter()));
        assertThat(quota.retryAfter()).isPositive();
    }

    @Test
    void inspectOfASlidingLogLeavesOutRecordsThatExpiredButAreStillKept() {
        RateLimitPolicy policy = policy("kept", Algorithm.SLIDING_LOG, 5, Duration.ofSeconds(1));
        take(policy, "k", 1);
        at(500);
        take(policy, "k", 4);
        at(1100);
        RateLimitPolicy lowered = policy.withRate(4);

        Quota quota = inspect(lowered, "k");

        assertThat(quota).as("the record of 0 ms no longer counts; the one of 500 ms frees its permits at 1500 ms")
                .isEqualTo(new Quota(4, 0, Duration.ofMillis(400), Duration.ofMillis(400)));
        Decision refused = take(lowered, "k", 1);
        assertThat(refused.retryAfter()).isEqualTo(quota.retryAfter());
        assertThat(inspect(lowered, "k")).isEqualTo(quota);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void resetGivesTheKeyItsWholeQuotaBack(Algorithm algorithm) {
        RateLimitPolicy policy = policy("reset-" + algorithm, algorithm, 3, Duration.ofHours(1));
        take(policy, "k", 3);
        take(policy, "other", 3);
        assertThat(take(policy, "k", 1).allowed()).isFalse();

        reset(policy, "k");

        assertThat(inspect(policy, "k")).isEqualTo(new Quota(3, 3, Duration.ZERO, Duration.ZERO));
        assertThat(take(policy, "k", 3).allowed()).isTrue();
        assertThat(take(policy, "other", 1).allowed()).as("only that key").isFalse();
        reset(policy, "never-used");
    }

    @Test
    void resetForgetsTheKeyUnderEveryAlgorithm() {
        RateLimitPolicy log = policy("switched", Algorithm.SLIDING_LOG, 2, Duration.ofHours(1));
        RateLimitPolicy window = policy("switched", Algorithm.FIXED_WINDOW, 2, Duration.ofHours(1));
        take(log, "k", 2);
        take(window, "k", 2);

        reset(window, "k");

        assertThat(inspect(log, "k").remaining()).isEqualTo(2);
        assertThat(inspect(window, "k").remaining()).isEqualTo(2);
    }

    /** Waiting is done above the backend (the registry's one timer); the backend's retryAfter must steer it. */
    private CompletionStage<Decision> waiting(RateLimiter backend, RateLimitPolicy policy, Duration maxWait) {
        return new RetryingAcquire(io.guard.time.Scheduler.of(timer), System::nanoTime)
                .acquire(() -> backend.tryAcquireAsync(policy, "k", 1), maxWait);
    }

    @Test
    void acquireGivesUpAtOnceWhenTheWaitWouldExceedMaxWait() throws Exception {
        RateLimitPolicy policy = policy("give-up", Algorithm.SLIDING_LOG, 1, Duration.ofSeconds(10));
        take(policy, "k", 1);
        Decision decision = waiting(limiter, policy, Duration.ofMillis(500)).toCompletableFuture()
                .get(2, TimeUnit.SECONDS);
        assertThat(decision.allowed()).isFalse();
        assertThat(decision.retryAfter()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void acquireRetriesAfterTheExactWaitOnATimer() throws Exception {
        RateLimiter realTime = create(Clock.systemUTC());
        try {
            RateLimitPolicy policy = policy("wait", Algorithm.SLIDING_LOG, 2, Duration.ofMillis(300));
            assertThat(realTime.tryAcquire(policy, "k", 2).allowed()).isTrue();
            long start = System.nanoTime();
            Decision decision = waiting(realTime, policy, Duration.ofSeconds(3)).toCompletableFuture()
                    .get(5, TimeUnit.SECONDS);
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(decision.allowed()).isTrue();
            assertThat(waitedMillis).isBetween(150L, 2_500L);
        } finally {
            realTime.close();
        }
    }

    private Quota charge(RateLimitPolicy policy, String key, long permits) {
        return limiter.charge(policy, key, policy.checkCharge(permits)).toCompletableFuture().join();
    }

    /** 10 per second: one permit is worth 100 ms; a burst of 10. */
    private static RateLimitPolicy bucket(String name) {
        return policy(name, Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1));
    }

    @Test
    void aCostChargedAfterTheCallPutsTheBucketInDebtAndRetryAfterSaysWhenItIsPaid() {
        RateLimitPolicy policy = bucket("charge-debt");
        assertThat(take(policy, "k", 1).allowed()).isTrue();

        Quota charged = charge(policy, "k", 14);

        assertThat(charged).as("10 - 1 - 14: five permits of debt; one permit free once 600 ms have paid them")
                .isEqualTo(new Quota(10, 0, Duration.ofMillis(600), Duration.ofMillis(1500), 5));
        assertThat(inspect(policy, "k")).isEqualTo(charged);
        Decision refused = take(policy, "k", 1);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.remaining()).isZero();
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(600));
        assertThat(take(policy, "k", 2).retryAfter()).as("a larger request waits for its own permits too")
                .isEqualTo(Duration.ofMillis(700));
        at(499);
        assertThat(inspect(policy, "k").debt()).as("a fraction of a permit still owed counts as one").isEqualTo(1);
        at(599);
        assertThat(inspect(policy, "k").debt()).as("paid; the next permit is 1 ms away").isZero();
        assertThat(take(policy, "k", 1).retryAfter()).isEqualTo(Duration.ofMillis(1));
        at(600);
        assertThat(take(policy, "k", 1).allowed()).isTrue();
        assertThat(take(policy, "k", 1).allowed()).isFalse();
    }

    @Test
    void aRefundGivesPermitsBackButNeverFillsTheBucketBeyondFull() {
        RateLimitPolicy policy = bucket("charge-refund");
        take(policy, "k", 3);

        assertThat(charge(policy, "k", -2).remaining()).isEqualTo(9);
        Quota full = charge(policy, "k", -50);

        assertThat(full).isEqualTo(new Quota(10, 10, Duration.ZERO, Duration.ZERO, 0));
        assertThat(take(policy, "k", 10).allowed()).isTrue();
        assertThat(take(policy, "k", 1).allowed()).as("not one permit more than the burst").isFalse();
    }

    @Test
    void aHugeCostIsChargedAsTheLargestDebtTheScriptsCountExactly() {
        RateLimitPolicy policy = bucket("charge-huge");

        long most = RateLimitPolicy.MAX_COUNT / 100_000; // one charge counts at most 2^52 us; a permit is 100,000

        Quota quota = charge(policy, "k", Long.MAX_VALUE);

        assertThat(quota.debt()).isEqualTo(most - 10);
        assertThat(quota.retryAfter()).isEqualTo(Duration.of(most * 100_000 + 100_000 - 1_000_000, ChronoUnit.MICROS));
        long capped = -Math.floorDiv(1_000_000 - RateLimitPolicy.MAX_COUNT, 100_000);
        assertThat(charge(policy, "k", 1_000).debt()).as("time at most 2^52 us ahead: capped, not overflowed")
                .isEqualTo(capped);
        assertThat(charge(policy, "k", -10).debt()).isEqualTo(capped - 10);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"SLIDING_LOG", "FIXED_WINDOW"})
    void onlyATokenBucketCanBeChargedAfterTheCall(Algorithm algorithm) {
        RateLimitPolicy policy = policy("charge-" + algorithm, algorithm, 10, Duration.ofSeconds(1));
        assertThatThrownBy(() -> limiter.charge(policy, "k", 1).toCompletableFuture().join())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'charge-" + algorithm + "'").hasMessageContaining("TOKEN_BUCKET");
    }

    /**
     * The bound, with time standing still (no refill): every admission needs the balance it takes, so only the
     * charges of calls in flight when the balance ran out can take it below zero. Eight callers at once, each with
     * one call in flight at most, estimates of 1 to 5 permits and costs of 0 to 20: what the admitted calls cost in
     * all stays within the burst plus eight times the largest cost beyond an estimate. Without the charges, the same
     * calls would cost about three times the burst.
     */
    @Test
    void concurrentCallsNeverCostMoreThanTheBurstPlusTheUnreservedCostsInFlight() throws Exception {
        RateLimitPolicy policy = new RateLimitPolicy("charge-bound", Algorithm.TOKEN_BUCKET, 1_000,
                Duration.ofSeconds(1), 0, Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_CLOSED);
        int callers = 8;
        java.util.concurrent.atomic.AtomicLong cost = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong unreserved = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<java.util.concurrent.Future<Integer>> calls = new java.util.ArrayList<>();
            for (int c = 0; c < callers; c++) {
                long seed = 42 + c;
                calls.add(pool.submit(() -> {
                    java.util.Random random = new java.util.Random(seed);
                    int admitted = 0;
                    while (admitted < 10_000) {
                        long estimate = 1 + random.nextInt(5);
                        if (!limiter.tryAcquire(policy, "k", estimate).allowed()) {
                            return admitted; // time stands still: refused for good
                        }
                        admitted++;
                        long consumed = random.nextInt(21);
                        cost.addAndGet(consumed);
                        unreserved.accumulateAndGet(consumed - estimate, Math::max);
                        limiter.charge(policy, "k", consumed - estimate).toCompletableFuture().join();
                    }
                    return admitted;
                }));
            }
            int admitted = 0;
            for (java.util.concurrent.Future<Integer> call : calls) {
                admitted += call.get(60, TimeUnit.SECONDS);
            }
            assertThat(admitted).isPositive();
        } finally {
            pool.shutdownNow();
        }
        assertThat(cost.get()).as("cost of the admitted calls").isLessThanOrEqualTo(1_000 + callers * unreserved.get())
                .isGreaterThan(1_000 - callers * 5L);
        Quota left = inspect(policy, "k");
        assertThat(cost.get()).as("every charge counted once, nothing lost").isEqualTo(1_000 - left.remaining()
                + left.debt());
    }
}
