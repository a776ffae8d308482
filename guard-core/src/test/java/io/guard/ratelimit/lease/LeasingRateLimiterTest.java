package io.guard.ratelimit.lease;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitKeys;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.lease.LeaseSource.Unused;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LeasingRateLimiterTest {

    private final ManualClock clock = new ManualClock();
    private final CountingExact exact = new CountingExact();
    private final FakeLeaseSource source = new FakeLeaseSource(1_000);
    private final Map<String, LeaseSize> sizes = new HashMap<>();
    private final LeasingRateLimiter leasing = new LeasingRateLimiter(exact, source, sizes::get, clock, clock,
            Duration.ofSeconds(1), 100);

    private static RateLimitPolicy policy(String name, Algorithm algorithm, long rate, Duration interval) {
        return new RateLimitPolicy(name, algorithm, rate, interval, 0, Scope.GLOBAL, TimeSource.SERVER,
                BackendFailurePolicy.FAIL_OPEN);
    }

    private final RateLimitPolicy bucket = policy("hot", Algorithm.TOKEN_BUCKET, 1_000, Duration.ofSeconds(60));

    private Decision decide(RateLimitPolicy policy, long permits) {
        return leasing.decide(policy, "k", permits).toCompletableFuture().join().decision();
    }

    @Test
    void spendsALeaseLocallyAndTakesTheNextWhenItIsSpent() {
        sizes.put("hot", new LeaseSize(false, 5));
        for (int i = 0; i < 5; i++) {
            assertThat(decide(bucket, 1).allowed()).isTrue();
        }
        assertThat(source.takes).hasSize(1);
        assertThat(source.takes.get(0)).isEqualTo(new FakeLeaseSource.Take(5, 1, Unused.NONE));
        assertThat(decide(bucket, 1).allowed()).isTrue();
        assertThat(source.takes).hasSize(2);
        assertThat(exact.calls).isZero();
        assertThat(leasing.stats()).isEqualTo(new LeaseStats(2, 0, 0, 4, 1));
        assertThat(decide(bucket, 1).remaining()).as("quota left in the store + in the lease").isEqualTo(990 + 3);
    }

    @Test
    void aLeaseLivesATenthOfItsIntervalAtMostTheMaximum() {
        assertThat(leasing.lifetimeNanos(bucket)).isEqualTo(Duration.ofSeconds(1).toNanos());
        assertThat(leasing.lifetimeNanos(policy("x", Algorithm.TOKEN_BUCKET, 10, Duration.ofMillis(500))))
                .isEqualTo(Duration.ofMillis(50).toNanos());
    }

    @Test
    void anExpiredLeaseGoesBackAtTheEndOfItsLifetime() {
        sizes.put("hot", new LeaseSize(false, 10));
        decide(bucket, 1);
        decide(bucket, 1);
        clock.advance(Duration.ofMillis(999));
        assertThat(source.givenBack).isEmpty();
        clock.advance(Duration.ofMillis(1));
        assertThat(source.givenBack).containsExactly(new Unused(8, 0));
        assertThat(source.left).isEqualTo(998);
        assertThat(leasing.stats()).isEqualTo(new LeaseStats(1, 8, 0, 0, 1));
    }

    @Test
    void theNextLeaseGivesBackWhatThePreviousLeftInTheSameScript() {
        sizes.put("hot", new LeaseSize(false, 10));
        decide(bucket, 1);
        decide(bucket, 7);
        assertThat(decide(bucket, 3).allowed()).as("2 left in the lease: too few").isTrue();
        assertThat(source.takes.get(1)).isEqualTo(new FakeLeaseSource.Take(10, 3, new Unused(2, 0)));
        assertThat(leasing.stats()).isEqualTo(new LeaseStats(2, 2, 0, 7, 1));
        clock.advance(Duration.ofSeconds(1));
        assertThat(source.givenBack).as("the replaced lease's expiry gives nothing twice")
                .containsExactly(new Unused(7, 0));
    }

    @Test
    void autoIsExactWhileColdThenFollowsTheDemandUpToATenthOfTheLimit() {
        sizes.put("hot", LeaseSize.AUTO);
        decide(bucket, 1);
        assertThat(exact.calls).as("a cold key is decided exactly").isEqualTo(1);
        for (int i = 0; i < 29; i++) {
            clock.advance(Duration.ofMillis(10));
            decide(bucket, 1);
        }
        assertThat(source.takes).isNotEmpty();
        assertThat(source.takes.get(source.takes.size() - 1).want()).isBetween(2L, 30L);
        for (int i = 0; i < 500; i++) {
            decide(bucket, 1);
        }
        assertThat(source.takes.stream().mapToLong(FakeLeaseSource.Take::want).max().orElseThrow())
                .as("a tenth of the rate").isEqualTo(100);
    }

    @Test
    void autoShrinksToExactWhenTheQuotaIsNearlySpent() {
        sizes.put("hot", LeaseSize.AUTO);
        for (int i = 0; i < 50; i++) {
            decide(bucket, 1);
        }
        int takes = source.takes.size();
        exact.remaining = 1;
        source.left = 1;
        int exactBefore = exact.calls;
        for (int i = 0; i < 200; i++) {
            decide(bucket, 1);
        }
        // The first take after the quota ran low still asks by the last answer it had; it learns what is left.
        assertThat(source.takes.stream().skip(takes + 1).mapToLong(FakeLeaseSource.Take::want).max().orElse(1))
                .isLessThanOrEqualTo(1);
        assertThat(exact.calls - exactBefore).isPositive();
    }

    @Test
    void aRevokedLeaseIsNeitherSpentNorGivenBack() {
        sizes.put("hot", new LeaseSize(false, 10));
        decide(bucket, 1);
        source.revoke(RateLimitKeys.hashTag("hot", "k"));
        assertThat(leasing.stats()).isEqualTo(new LeaseStats(1, 0, 9, 0, 1));
        decide(bucket, 1);
        assertThat(source.takes).hasSize(2);
        clock.advance(Duration.ofSeconds(2));
        assertThat(source.givenBack).containsExactly(new Unused(9, 0));
    }

    @Test
    void aTakeInFlightWhenTheLeasesAreRevokedInstallsNothing() {
        sizes.put("hot", new LeaseSize(false, 10));
        source.hold();
        CompletableFuture<?> first = leasing.decide(bucket, "k", 1).toCompletableFuture();
        source.revoke(null);
        source.answer();
        assertThat(first.join()).isNotNull();
        assertThat(leasing.stats()).isEqualTo(new LeaseStats(1, 0, 9, 0, 1));
    }

    @Test
    void callsThatFindTheNextLeaseOnItsWaySpendFromItAndTheRestGoExact() {
        sizes.put("hot", new LeaseSize(false, 3));
        source.hold();
        CompletableFuture<?> first = leasing.decide(bucket, "k", 1).toCompletableFuture();
        List<CompletableFuture<BackendOutcome>> waiting = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            waiting.add(leasing.decide(bucket, "k", 1).toCompletableFuture());
        }
        assertThat(waiting).noneMatch(CompletableFuture::isDone);
        assertThat(source.takes).hasSize(1);
        source.answer();
        first.join();
        assertThat(waiting).allMatch(w -> w.join().decision().allowed());
        assertThat(exact.calls).as("the lease of 3 served the first call and two that waited").isEqualTo(1);
        assertThat(source.takes).hasSize(1);
    }

    @Test
    void aRefusedTakeSendsTheKeyToTheExactBackendUntilItsRetryAfter() {
        sizes.put("hot", new LeaseSize(false, 10));
        source.left = 0;
        assertThat(decide(bucket, 1).allowed()).isFalse();
        decide(bucket, 1);
        assertThat(exact.calls).isEqualTo(1);
        clock.advance(Duration.ofMillis(300));
        source.left = 100;
        decide(bucket, 1);
        assertThat(source.takes).hasSize(2);
    }

    @Test
    void aChangedTokenBucketDropsItsLeaseAndAFixedWindowGivesItsBack() {
        sizes.put("hot", new LeaseSize(false, 10));
        decide(bucket, 1);
        decide(bucket.withRate(500), 1);
        assertThat(leasing.stats()).isEqualTo(new LeaseStats(2, 0, 9, 9, 1));
        RateLimitPolicy window = policy("hot", Algorithm.FIXED_WINDOW, 1_000, Duration.ofSeconds(60));
        decide(window, 1);
        decide(window.withRate(500), 1);
        assertThat(source.givenBack).contains(new Unused(9, 0));
    }

    @Test
    void exactLimitsAndSlidingLogsNeverLease() {
        decide(bucket, 1);
        sizes.put("log", new LeaseSize(false, 10));
        decide(policy("log", Algorithm.SLIDING_LOG, 100, Duration.ofSeconds(1)), 1);
        assertThat(exact.calls).isEqualTo(2);
        assertThat(source.takes).isEmpty();
    }

    @Test
    void closingGivesEveryLeaseBackThenClosesTheExactBackend() {
        sizes.put("hot", new LeaseSize(false, 10));
        decide(bucket, 1);
        leasing.close();
        assertThat(source.givenBack).containsExactly(new Unused(9, 0));
        assertThat(exact.closed).isTrue();
    }

    @Test
    void keysBeyondTheBoundAreDecidedExactly() {
        sizes.put("hot", new LeaseSize(false, 10));
        for (int i = 0; i < 100; i++) {
            leasing.decide(bucket, "k" + i, 1);
        }
        decide(bucket, 1);
        assertThat(exact.calls).isEqualTo(1);
        clock.advance(Duration.ofSeconds(3)); // every lease expired and went back: the idle keys make room
        decide(bucket, 1);
        assertThat(exact.calls).isEqualTo(1);
    }

    @Test
    void sizesAreReadAndCheckedAgainstThePolicy() {
        assertThat(LeaseSize.parse("off")).isEqualTo(LeaseSize.OFF);
        assertThat(LeaseSize.parse(" AUTO ")).isEqualTo(LeaseSize.AUTO);
        assertThat(LeaseSize.parse("50")).isEqualTo(new LeaseSize(false, 50));
        assertThat(LeaseSize.parse("50").toString()).isEqualTo("50");
        assertThatThrownBy(() -> LeaseSize.parse("lots")).hasMessageContaining("'lots'");
        assertThatThrownBy(() -> LeaseSize.parse("0")).hasMessageContaining("'0'");
        assertThat(LeaseSize.parse("50").problemWith(policy("log", Algorithm.SLIDING_LOG, 100, Duration.ofSeconds(1))))
                .contains("limit 'log'", "SLIDING_LOG", "TOKEN_BUCKET or FIXED_WINDOW");
        assertThat(LeaseSize.parse("500").problemWith(bucket.withRate(100))).contains("lease 500", "(100)");
        assertThat(LeaseSize.AUTO.problemWith(bucket)).isNull();
        assertThat(LeaseSize.OFF.problemWith(policy("log", Algorithm.SLIDING_LOG, 100, Duration.ofSeconds(1))))
                .isNull();
    }
}
