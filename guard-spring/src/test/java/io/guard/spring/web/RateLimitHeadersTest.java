package io.guard.spring.web;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
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
