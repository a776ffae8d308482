package io.guard.ratelimit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Values no backend can decide exactly (Redis scripts count in doubles) are refused when the policy is built. */
class RateLimitPolicyBoundsTest {

    private static RateLimitPolicy policy(Algorithm algorithm, long rate, Duration interval, long burst) {
        return new RateLimitPolicy("bounds", algorithm, rate, interval, burst, Scope.GLOBAL, TimeSource.SERVER,
                BackendFailurePolicy.FAIL_CLOSED);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aRateNearLongMaxValueIsRefusedNamingTheValue(Algorithm algorithm) {
        assertThatThrownBy(() -> policy(algorithm, Long.MAX_VALUE, Duration.ofSeconds(1), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'bounds'")
                .hasMessageContaining("9223372036854775807").hasMessageContaining("4503599627370496");
        assertThat(policy(algorithm, RateLimitPolicy.MAX_COUNT, Duration.ofSeconds(1), 1).rate())
                .isEqualTo(RateLimitPolicy.MAX_COUNT);
    }

    @Test
    void anIntervalBeyondAHundredYearsIsRefused() {
        assertThatThrownBy(() -> policy(Algorithm.SLIDING_LOG, 1, Duration.ofDays(36_501), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT876024H");
        assertThat(policy(Algorithm.SLIDING_LOG, 1, RateLimitPolicy.MAX_INTERVAL, 0).interval())
                .isEqualTo(Duration.ofDays(36_500));
    }

    @Test
    void aTokenBucketWhoseToleranceCannotBeCountedExactlyIsRefused() {
        assertThat(policy(Algorithm.TOKEN_BUCKET, 1, Duration.ofHours(1), 1_000_000).burst()).isEqualTo(1_000_000);
        assertThat(policy(Algorithm.TOKEN_BUCKET, 999_983, Duration.ofHours(1), 0).burst()).isEqualTo(999_983);
        assertThatThrownBy(() -> policy(Algorithm.TOKEN_BUCKET, 999_983, Duration.ofDays(1), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("burst 999983");
        assertThat(policy(Algorithm.SLIDING_LOG, 999_983, Duration.ofDays(1), 0).rate()).as("only buckets count steps")
                .isEqualTo(999_983);
    }
}
