package io.guard.spring.ratelimit;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.ReplicaWait;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one burst rule of {@link LimitSettings}, through every way a policy is made: the layered sources, a tier over
 * its limit, an operator's override over the policy in force. Unset, a burst is the rate and follows it; set by a
 * source, it stays under a rate from a layer above; a tier never takes its limit's burst.
 */
class BurstRuleTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    @Test
    void aBurstLeftUnsetIsTheRate() {
        assertThat(settings(10L, null).toPolicy("api").burst()).isEqualTo(10);
    }

    @Test
    void aBurstSetBelowStaysUnderARateSetAbove() {
        LimitSettings annotation = settings(10L, 40L);
        LimitSettings instance = settings(20L, null);

        assertThat(instance.orElse(annotation).toPolicy("api")).extracting(RateLimitPolicy::rate,
                RateLimitPolicy::burst).containsExactly(20L, 40L);
    }

    @Test
    void aTierNeverTakesItsLimitsBurst() {
        LimitSettings limit = settings(10L, 40L);

        assertThat(limit.forTier(settings(100L, null)).toPolicy("api.pro").burst()).isEqualTo(100);
        assertThat(limit.forTier(LimitSettings.NONE).toPolicy("api.free"))
                .extracting(RateLimitPolicy::rate, RateLimitPolicy::burst).containsExactly(10L, 10L);
        assertThat(limit.forTier(settings(100L, 150L)).toPolicy("api.pro").burst()).isEqualTo(150);
    }

    @Test
    void anOverriddenRateTakesADefaultBurstAlongAndLeavesAConfiguredOneAlone() {
        RateLimitPolicy defaultBurst = policy(10, 0);
        RateLimitPolicy ownBurst = policy(10, 40);

        assertThat(override(50L).applyTo(defaultBurst).burst()).isEqualTo(50);
        assertThat(override(50L).applyTo(ownBurst).burst()).isEqualTo(40);
        assertThat(override(null).applyTo(ownBurst).burst()).isEqualTo(40);
    }

    @Test
    void theSettingsOfAPolicyMakeThatPolicyAgain() {
        RateLimitPolicy waiting = new RateLimitPolicy("api", Algorithm.TOKEN_BUCKET, 10, SECOND, 40, Scope.PER_INSTANCE,
                TimeSource.CLIENT, BackendFailurePolicy.FAIL_CLOSED, new ReplicaWait(1, Duration.ofMillis(30)));

        assertThat(LimitSettings.of(waiting).toPolicy("api")).isEqualTo(waiting);
        assertThat(LimitSettings.of(policy(10, 0)).toPolicy("api")).isEqualTo(policy(10, 0));
        assertThat(LimitSettings.of(policy(10, 0)).burst()).isNull();
    }

    private static LimitSettings settings(Long rate, Long burst) {
        return new LimitSettings(rate, SECOND, Algorithm.TOKEN_BUCKET, burst, null, null, null, null, null, null, null,
                null, null, null);
    }

    private static RateLimitPolicy policy(long rate, long burst) {
        return new RateLimitPolicy("api", Algorithm.TOKEN_BUCKET, rate, SECOND, burst, Scope.GLOBAL,
                TimeSource.SERVER, BackendFailurePolicy.FAIL_OPEN);
    }

    private static LimitOverride override(Long rate) {
        return new LimitOverride(rate, rate == null ? Duration.ofSeconds(2) : null, null, null, "test", Instant.EPOCH);
    }
}
