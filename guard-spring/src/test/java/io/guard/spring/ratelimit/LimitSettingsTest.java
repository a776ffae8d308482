package io.guard.spring.ratelimit;

import io.guard.ratelimit.Algorithm;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Settings become a policy in one place, for a limit, a tier and a gateway route alike. */
class LimitSettingsTest {

    private static LimitSettings bucket(Long burst) {
        return new LimitSettings(10L, Duration.ofSeconds(1), Algorithm.TOKEN_BUCKET, burst, null, null, null, null,
                null, null, null, null, null, null);
    }

    @Test
    void aBurstLeftUnsetIsTheRate() {
        assertThat(bucket(null).toPolicy("users").burst()).isEqualTo(10);
        assertThat(bucket(20L).toPolicy("users").burst()).isEqualTo(20);
    }

    /** What a migration maps SCG's burstCapacity 0 onto: SCG refuses everything, so it must not mean "the rate". */
    @Test
    void anExplicitBurstOfZeroIsRefusedNotReadAsUnset() {
        assertThatThrownBy(() -> bucket(0L).toPolicy("users")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("rate limiter 'users': burst must be at least 1 but was 0")
                .hasMessageContaining("burstCapacity 0 refuses every request");
    }
}
