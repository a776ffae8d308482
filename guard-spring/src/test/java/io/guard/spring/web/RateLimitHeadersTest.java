package io.guard.spring.web;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.local.LocalRateLimiter;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimitHeadersTest {

    private static final RateLimitPolicy SUBMIT =
            RateLimitPolicy.of("order-submit", Algorithm.SLIDING_LOG, 5, Duration.ofSeconds(60));
    private static final RateLimitPolicy FAST =
            RateLimitPolicy.of("fast", Algorithm.TOKEN_BUCKET, 10, Duration.ofMillis(500));

    @Test
    void writesOneListMemberPerLimitInTheDraftsSyntax() {
        var entries = List.of(
                new RateLimitHeaders.Entry(SUBMIT, new Decision(true, 3, Duration.ZERO, Duration.ofMillis(41_200), 5)),
                new RateLimitHeaders.Entry(FAST, new Decision(true, 9, Duration.ZERO, Duration.ofMillis(50), 10)));

        assertThat(RateLimitHeaders.policyField(entries)).isEqualTo("\"order-submit\";q=5;w=60, \"fast\";q=10;w=1");
        assertThat(RateLimitHeaders.rateLimitField(entries)).isEqualTo("\"order-submit\";r=3;t=42, \"fast\";r=9;t=1");
    }

    @Test
    void aRefusalResetsNoSoonerThanTheClientMustWait() {
        var refused = new RateLimitHeaders.Entry(SUBMIT,
                new Decision(false, 0, Duration.ofMillis(12_001), Duration.ofSeconds(5), 5));
        assertThat(RateLimitHeaders.rateLimitField(List.of(refused))).isEqualTo("\"order-submit\";r=0;t=13");
    }

    @Test
    void aDecisionThatCountedNothingClaimsNoQuota() {
        var uncounted = new RateLimitHeaders.Entry(SUBMIT, Decision.allowedUncounted(5));
        var counted = new RateLimitHeaders.Entry(FAST, new Decision(true, 9, Duration.ZERO, Duration.ofMillis(50), 10));

        assertThat(RateLimitHeaders.policyField(List.of(uncounted, counted)))
                .as("the policy is known").isEqualTo("\"order-submit\";q=5;w=60, \"fast\";q=10;w=1");
        assertThat(RateLimitHeaders.rateLimitField(List.of(uncounted, counted))).isEqualTo("\"fast\";r=9;t=1");
        assertThat(RateLimitHeaders.rateLimitField(List.of(uncounted))).isEmpty();
    }

    /** Rate 1 per 10 s, burst 2: the bucket admits 2 at once, then 1 per 10 s; it is full again 20 s after emptying. */
    @Test
    void aBucketWithABurstAboveItsRateAdvertisesTheBucketAndStaysWithinIt() {
        RateLimitPolicy bucket = new RateLimitPolicy("bucket", Algorithm.TOKEN_BUCKET, 1, Duration.ofSeconds(10), 2,
                Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_OPEN);
        var limiter = new LocalRateLimiter(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));
        List<Decision> decisions = List.of(decide(limiter, bucket), decide(limiter, bucket), decide(limiter, bucket));
        assertThat(decisions).extracting(Decision::allowed).containsExactly(true, true, false);

        assertThat(RateLimitHeaders.policyField(List.of(new RateLimitHeaders.Entry(bucket, decisions.get(0)))))
                .isEqualTo("\"bucket\";q=2;w=20");
        assertThat(decisions.stream().map(d -> RateLimitHeaders.rateLimitField(List.of(
                new RateLimitHeaders.Entry(bucket, d))))).as("r never above q, t never beyond w")
                .containsExactly("\"bucket\";r=1;t=10", "\"bucket\";r=0;t=20", "\"bucket\";r=0;t=20");
    }

    @Test
    void aBucketsFillTimeIsRoundedUpToWholeSeconds() {
        RateLimitPolicy bucket = new RateLimitPolicy("bucket", Algorithm.TOKEN_BUCKET, 3, Duration.ofSeconds(1), 10,
                Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_OPEN);
        RateLimitPolicy smooth = new RateLimitPolicy("smooth", Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1), 1,
                Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_OPEN);
        Decision any = new Decision(true, 0, Duration.ZERO, Duration.ZERO, 3);

        assertThat(RateLimitHeaders.policyField(List.of(new RateLimitHeaders.Entry(bucket, any),
                new RateLimitHeaders.Entry(smooth, any))))
                .as("10 tokens at 3 per second fill in 3.34 s; a burst below the rate keeps rate and interval")
                .isEqualTo("\"bucket\";q=10;w=4, \"smooth\";q=10;w=1");
    }

    private static Decision decide(LocalRateLimiter limiter, RateLimitPolicy policy) {
        return limiter.decide(policy, "k", 1).toCompletableFuture().join().decision();
    }

    @Test
    void retryAfterIsWholeSecondsRoundedUpAndNeverZero() {
        assertThat(RateLimitHeaders.retryAfterSeconds(Duration.ofMillis(1))).isEqualTo(1);
        assertThat(RateLimitHeaders.retryAfterSeconds(Duration.ZERO)).isEqualTo(1);
        assertThat(RateLimitHeaders.retryAfterSeconds(Duration.ofSeconds(2))).isEqualTo(2);
        assertThat(RateLimitHeaders.retryAfterSeconds(Duration.ofMillis(2_001))).isEqualTo(3);
    }

    @Test
    void namesAreValidStructuredFieldStrings() {
        assertThat(RateLimitHeaders.quoted("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
        assertThat(RateLimitHeaders.quoted("grüße")).isEqualTo("\"gr??e\"");
    }
}
