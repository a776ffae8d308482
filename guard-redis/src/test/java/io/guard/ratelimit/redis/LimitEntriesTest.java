package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a decision sends is worked out once per policy now: the arguments and keys must be exactly those each
 * algorithm's file header lists, whatever the algorithm, scope, time source, permits and peek flag, and whichever
 * policy was used just before.
 */
class LimitEntriesTest {

    private final LimitEntries entries = new LimitEntries("p:", "node-1");

    @Test
    void aTokenBucketSendsItsReducedEmissionIntervalBurstPermitsAndMargin() {
        // 3 per second: 1,000,000 / 3 us, kept as the fraction 1000000/3; burst 7; server time, margin 1 ms.
        RateLimitPolicy policy = new RateLimitPolicy("orders", Algorithm.TOKEN_BUCKET, 3, Duration.ofSeconds(1), 7,
                Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_OPEN);

        LimitEntries.Entry entry = entries.entry(policy, "{orders:u}", 2, 123, false);

        assertThat(entry.keys).containsExactly("p:{orders:u}:tat");
        assertThat(entry.args).containsExactly("1", "token_bucket", "1", "6", "", "1000000", "3", "2", "7", "1");
    }

    @Test
    void aChargeSendsTheTokenBucketsArgumentsWithSignedPermitsAndTheChargeFlagLeavingDecisionsAsTheyWere() {
        RateLimitPolicy policy = new RateLimitPolicy("tokens", Algorithm.TOKEN_BUCKET, 3, Duration.ofSeconds(1), 7,
                Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_OPEN);

        LimitEntries.Entry refund = entries.chargeEntry(policy, "{tokens:u}", -25, 555);
        LimitEntries.Entry decision = entries.entry(policy, "{tokens:u}", 2, 556, false);

        assertThat(refund.keys).containsExactly("p:{tokens:u}:tat");
        assertThat(refund.args).containsExactly("1", "token_bucket", "1", "7", "555", "1000000", "3", "-25", "7",
                "1000", "c");
        assertThat(decision.args).containsExactly("1", "token_bucket", "1", "6", "556", "1000000", "3", "2", "7",
                "1000");
    }

    @Test
    void aClientTimeSlidingLogPerInstanceSendsTheTimeItsKeysAndThePeekFlag() {
        RateLimitPolicy policy = new RateLimitPolicy("search", Algorithm.SLIDING_LOG, 10, Duration.ofMillis(1500), 0,
                Scope.PER_INSTANCE, TimeSource.CLIENT, BackendFailurePolicy.FAIL_OPEN);

        LimitEntries.Entry entry = entries.entry(policy, "{search:u}", 40, 987_654, true);

        assertThat(entry.keys).containsExactly("p:{search:u}:log:node-1", "p:{search:u}:state:node-1");
        assertThat(entry.args).containsExactly("1", "sliding_log", "2", "6", "987654", "10", "1500000", "40",
                "1000", "1");
    }

    @Test
    void aOneLimitEntryIsTheGroupEntryOfThatLimitForEveryShape() {
        for (Algorithm algorithm : Algorithm.values()) {
            for (Scope scope : Scope.values()) {
                for (TimeSource time : TimeSource.values()) {
                    RateLimitPolicy policy = new RateLimitPolicy("l-" + algorithm, algorithm, 5, Duration.ofSeconds(2),
                            0, scope, time, BackendFailurePolicy.FAIL_OPEN);
                    for (long permits : new long[] {1, 5}) {
                        for (boolean peek : new boolean[] {false, true}) {
                            assertSameAsGroupOfOne(policy, permits, peek);
                        }
                    }
                }
            }
        }
    }

    @Test
    void filledInValuesNeverLeakIntoTheNextDecisionOfThePolicy() {
        RateLimitPolicy client = new RateLimitPolicy("c", Algorithm.FIXED_WINDOW, 100, Duration.ofSeconds(1), 0,
                Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_OPEN);
        RateLimitPolicy other = RateLimitPolicy.of("o", Algorithm.TOKEN_BUCKET, 100, Duration.ofSeconds(1));

        List<String> first = entries.entry(client, "{c:a}", 17, 111, false).args;
        entries.entry(other, "{o:a}", 3, 222, false);
        List<String> second = entries.entry(client, "{c:b}", 100, 333, false).args;

        assertThat(first).containsExactly("1", "fixed_window", "1", "5", "111", "100", "1000000", "17", "1000");
        assertThat(second).containsExactly("1", "fixed_window", "1", "5", "333", "100", "1000000", "100", "1000");
    }

    private void assertSameAsGroupOfOne(RateLimitPolicy policy, long permits, boolean peek) {
        LimitEntries.Entry entry = entries.entry(policy, "{t:k}", permits, 42, peek);
        List<DecideScript.Limit> group = List.of(entries.limit(policy, "{t:k}", permits, 42, peek));
        String shape = policy + ", permits " + permits + ", peek " + peek;
        assertThat(entry.keys).as(shape).isEqualTo(DecideScript.keys(group)).isEqualTo(entries.keys(policy, "{t:k}"));
        List<String> expected = DecideScript.args(group);
        if (peek && policy.algorithm() == Algorithm.TOKEN_BUCKET) {
            // An inspection asks a bucket for its signed balance (a debt shows); a lease's peek, for 0 at least.
            expected = new java.util.ArrayList<>(expected);
            expected.set(expected.size() - 1, "b");
        }
        assertThat(entry.args).as(shape).isEqualTo(expected);
    }
}
