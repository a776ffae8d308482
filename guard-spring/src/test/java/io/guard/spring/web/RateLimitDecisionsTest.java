package io.guard.spring.web;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimitDecisionsTest {

    private static final RateLimitPolicy SUBMIT =
            RateLimitPolicy.of("order-submit", Algorithm.SLIDING_LOG, 5, Duration.ofSeconds(60));

    @Test
    void aRequestWhoseOnlyDecisionCountedNothingGetsThePolicyAndNoRateLimitField() {
        var decisions = new RateLimitDecisions();
        decisions.record(SUBMIT, Decision.allowedUncounted(5));

        assertThat(written(decisions)).containsExactly(Map.entry("RateLimit-Policy", "\"order-submit\";q=5;w=60"));
    }

    @Test
    void aDecisionThatCountedNothingDoesNotHideWhatAnEarlierOneCounted() {
        var decisions = new RateLimitDecisions();
        decisions.record(SUBMIT, new Decision(true, 3, Duration.ZERO, Duration.ofSeconds(42), 5));
        decisions.record(SUBMIT, Decision.allowedUncounted(5));

        assertThat(written(decisions)).containsEntry("RateLimit", "\"order-submit\";r=3;t=42");
    }

    private static Map<String, String> written(RateLimitDecisions decisions) {
        Map<String, String> fields = new LinkedHashMap<>();
        decisions.writeTo(fields::put);
        return fields;
    }
}
