package io.guard.ratelimit.local;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.RateLimiterContract;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class LocalRateLimiterTest extends RateLimiterContract {

    private LocalRateLimiter local;

    @Override
    protected RateLimiter create(Clock clock) {
        LocalRateLimiter created = new LocalRateLimiter(clock);
        if (local == null) {
            local = created;
        }
        return created;
    }

    @Override
    protected void assertNothingStored() {
        assertThat(local.size()).isZero();
    }

    @Test
    void dropsStateOnceItCanNoLongerMatter() {
        for (Algorithm algorithm : Algorithm.values()) {
            RateLimitPolicy policy = policy("sweep-" + algorithm, algorithm, 5, Duration.ofSeconds(1));
            for (int key = 0; key < 100; key++) {
                local.tryAcquire(policy, "user-" + key, 5);
            }
        }
        assertThat(local.size()).isEqualTo(300);
        clock.advance(Duration.ofMillis(999));
        local.sweep();
        assertThat(local.size()).as("windows end, records expire and buckets refill at 1000 ms").isEqualTo(300);
        clock.advance(Duration.ofMillis(1));
        local.sweep();
        assertThat(local.size()).isZero();
    }

    @Test
    void sweepsByItselfAsDecisionsGoBy() {
        RateLimitPolicy policy = policy("auto-sweep", Algorithm.TOKEN_BUCKET, 5, Duration.ofMillis(10));
        for (int i = 0; i < LocalRateLimiter.SWEEP_EVERY - 1; i++) {
            local.tryAcquire(policy, "user-" + i, 1);
        }
        clock.advance(Duration.ofSeconds(1));
        local.tryAcquire(policy, "one-more", 1);
        assertThat(local.size()).isLessThanOrEqualTo(1);
    }
}
