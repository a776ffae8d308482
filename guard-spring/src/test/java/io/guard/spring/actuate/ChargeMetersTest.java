package io.guard.spring.actuate;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Costs charged after the call in meters: charges by the balance they left ({@code in-credit}, {@code in-debt}) or
 * {@code failed}, and the permits charged beyond the estimates or given back; only for limits that charge.
 */
class ChargeMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RateLimiterMeters meters = new RateLimiterMeters(registry);
    private final RateLimitPolicy policy = RateLimitPolicy.of("tokens", Algorithm.TOKEN_BUCKET, 60,
            Duration.ofMinutes(1));

    private double charges(String outcome) {
        return registry.get(RateLimiterMeters.CHARGES).tags("name", "tokens", "outcome", outcome).counter().count();
    }

    private double permits(String direction) {
        return registry.get(RateLimiterMeters.CHARGED_PERMITS).tags("name", "tokens", "direction", direction)
                .counter().count();
    }

    @Test
    void chargesAreCountedByTheBalanceTheyLeftAndTheirPermitsByDirection() {
        meters.register("calls");

        meters.onCharge(policy, 30, new Quota(60, 0, Duration.ofSeconds(11), Duration.ofSeconds(70), 10), null);
        meters.onCharge(policy, -4, new Quota(60, 4, Duration.ZERO, Duration.ofSeconds(56)), null);
        meters.onCharge(policy, 7, null, new RateLimiterBackendException("rate limiter 'tokens': down", null));

        assertThat(charges("in-debt")).isEqualTo(1);
        assertThat(charges("in-credit")).isEqualTo(1);
        assertThat(charges("failed")).isEqualTo(1);
        assertThat(permits("charged")).as("a failed charge charged nothing").isEqualTo(30);
        assertThat(permits("refunded")).isEqualTo(4);
        assertThat(registry.find(RateLimiterMeters.CHARGES).tag("name", "calls").counters())
                .as("a limit that never charged has no charge meters").isEmpty();
    }
}
