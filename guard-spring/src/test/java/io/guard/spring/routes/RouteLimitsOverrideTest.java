package io.guard.spring.routes;

import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.local.LocalLimitOverrideStore;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.spring.ratelimit.LimitSettings;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.ratelimit.MissingKeyPolicy;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import io.guard.spring.ratelimit.RateLimitExceededException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A route's refusal describes the policy in force, as an annotation's does, also after an operator's override. */
class RouteLimitsOverrideTest {

    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private final RateLimiterRegistry registry = new RateLimiterRegistry(new LocalRateLimiter(clock), clock, 10);
    private final LiveLimits live = new LiveLimits(registry, new LocalLimitOverrideStore(), clock,
            Duration.ofMinutes(1), Duration.ofSeconds(1), (delay, task) -> () -> { });

    @AfterEach
    void close() {
        live.close();
        registry.close();
    }

    @Test
    void aRefusalAfterAnOverrideNamesTheOverriddenRate() {
        LimitSettings api = new LimitSettings(1L, Duration.ofMinutes(1), null, null, null, null, null, null, null,
                null, null, null, null, null);
        RouteLimits routes = RouteLimits.create(List.of(new RouteDefinition("api", List.of("/api/**"), List.of(),
                        "", 1)), null, name -> name.equals("api") ? api : LimitSettings.NONE, LimitSettings.NONE,
                MissingKeyPolicy.REJECT, registry, live);
        live.override("api", 2L, null, null, null, "test");
        var request = new RouteRequest("GET", PathContainer.parsePath("/api/orders"), "127.0.0.1", HttpHeaders::new);
        RateLimitDecisionSink ignore = (policy, decision) -> { };

        routes.acquire(request, ignore);
        routes.acquire(request, ignore);

        assertThatThrownBy(() -> routes.acquire(request, ignore))
                .isInstanceOf(RateLimitExceededException.class)
                .hasMessage("Rate limit 'api' allows 2 requests per 60s.");
    }
}
