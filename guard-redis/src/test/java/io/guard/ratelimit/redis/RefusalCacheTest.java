package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RefusalCacheTest {

    private static final RateLimitPolicy POLICY = RateLimitPolicy.of("orders", Algorithm.SLIDING_LOG, 5,
            Duration.ofSeconds(1));
    private static final Decision REFUSED = new Decision(false, 1, Duration.ofMillis(300), Duration.ofMillis(900), 5);

    @Test
    void repeatsARefusalUntilItsRetryAfterCountedFromWhenTheRequestWasSent() {
        RefusalCache cache = new RefusalCache(10);
        cache.remember(POLICY, "k", 2, 1_000_000, REFUSED);

        Decision again = cache.find(POLICY, "k", 2, 1_100_000);
        assertThat(again).isEqualTo(new Decision(false, 1, Duration.ofMillis(200), Duration.ofMillis(800), 5));
        assertThat(cache.find(POLICY, "k", 2, 1_299_999).retryAfter()).isEqualTo(Duration.ofNanos(1000));
        assertThat(cache.find(POLICY, "k", 2, 1_300_000)).as("then Redis decides again").isNull();
        assertThat(cache.size()).isZero();
    }

    @Test
    void aDifferentRequestOrPolicyIsNotARepeat() {
        RefusalCache cache = new RefusalCache(10);
        cache.remember(POLICY, "k", 2, 0, REFUSED);

        assertThat(cache.find(POLICY, "k", 1, 1)).as("fewer permits may fit").isNull();
        assertThat(cache.find(POLICY, "other", 2, 1)).isNull();
        assertThat(cache.find(POLICY.withRate(10), "k", 2, 1)).as("a raised rate may fit").isNull();
        assertThat(cache.find(POLICY, "k", 2, 1)).isNotNull();
    }

    @Test
    void remembersNoAllowAndNoMoreThanItsCapacityMakingRoomByDroppingWhatLapsesFirst() {
        RefusalCache cache = new RefusalCache(2);
        cache.remember(POLICY, "allowed", 1, 0, new Decision(true, 4, Duration.ZERO, Duration.ofSeconds(1), 5));
        cache.remember(POLICY, "a", 1, 0, REFUSED);
        cache.remember(POLICY, "b", 1, 100, REFUSED);
        cache.remember(POLICY, "c", 1, 200, REFUSED);
        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.find(POLICY, "a", 1, 300)).as("lapses first, so it made room").isNull();
        assertThat(cache.find(POLICY, "c", 1, 300)).isNotNull();

        cache.remember(POLICY, "d", 1, 300_200, REFUSED);
        assertThat(cache.find(POLICY, "d", 1, 300_201)).as("expired entries make room").isNotNull();
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void aLongRefusalIsTrustedForOneSecondAtMostThenRedisDecidesAgain() {
        RefusalCache cache = new RefusalCache(10);
        Decision hourly = new Decision(false, 0, Duration.ofMinutes(59), Duration.ofMinutes(59), 1);
        cache.remember(POLICY, "k", 1, 0, hourly);

        assertThat(cache.find(POLICY, "k", 1, 999_999).retryAfter()).as("the true wait, not the trust bound")
                .isEqualTo(Duration.ofMinutes(59).minusNanos(999_999_000));
        assertThat(cache.find(POLICY, "k", 1, 1_000_000)).isNull();
    }

    @Test
    void forgettingALimitDropsEveryRefusalOfItAndNothingElse() {
        RefusalCache cache = new RefusalCache(10);
        cache.remember(POLICY, "k", 1, 0, REFUSED);
        cache.remember(POLICY, "k", 2, 0, REFUSED);
        cache.remember(POLICY.withRate(4), "k", 1, 0, REFUSED);
        cache.remember(POLICY, "other", 1, 0, REFUSED);

        cache.forget("k");
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.find(POLICY, "other", 1, 1)).isNotNull();
    }

    @Test
    void sizeZeroRemembersNothingAndANegativeSizeIsAnError() {
        RefusalCache off = new RefusalCache(0);
        off.remember(POLICY, "k", 1, 0, REFUSED);
        assertThat(off.find(POLICY, "k", 1, 1)).isNull();
        assertThatThrownBy(() -> new RefusalCache(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }
}
