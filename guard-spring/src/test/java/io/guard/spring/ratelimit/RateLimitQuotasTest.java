package io.guard.spring.ratelimit;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.local.LocalRateLimiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The application API on the in-process backend, time standing still: names and keys are checked before anything. */
class RateLimitQuotasTest {

    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private final RateLimiterRegistry registry = new RateLimiterRegistry(new LocalRateLimiter(clock), clock, 10);
    private final RateLimitQuotas quotas = new RateLimitQuotas(registry);

    RateLimitQuotasTest() {
        registry.register(new RateLimitPolicy("order-submit", Algorithm.SLIDING_LOG, 5, Duration.ofMinutes(1), 0,
                Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED));
    }

    @AfterEach
    void close() {
        registry.close();
    }

    @Test
    void readsAndResetsOneKeyByLimitName() {
        registry.tryAcquire("order-submit", "user-42", 5);

        assertThat(quotas.inspect("order-submit", "user-42"))
                .isEqualTo(new Quota(5, 0, Duration.ofMinutes(1), Duration.ofMinutes(1)));
        quotas.reset("order-submit", "user-42");

        assertThat(quotas.inspect("order-submit", "user-42")).isEqualTo(new Quota(5, 5, Duration.ZERO, Duration.ZERO));
        assertThat(registry.stats("order-submit").permitted()).as("neither is a decision").isEqualTo(1);
    }

    @Test
    void anUnknownLimitIsAnErrorListingTheLimits() {
        assertThatThrownBy(() -> quotas.inspect("order-sumbit", "user-42"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("No rate limit named 'order-sumbit'; limits: [order-submit]");
        assertThatThrownBy(() -> quotas.resetAsync("order-sumbit", "user-42"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMissingOrBlankKeyIsAnErrorNamingTheLimit() {
        assertThatThrownBy(() -> quotas.reset("order-submit", " "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Rate limit 'order-submit' needs the key whose quota to read or reset, but it"
                        + " was blank");
        assertThatThrownBy(() -> quotas.inspectAsync("order-submit", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was missing");
    }
}
