package io.guard.spring.routes;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.local.LocalLimitOverrideStore;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.spring.method.GuardAnnotationException;
import io.guard.spring.ratelimit.LimitSettings;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.ratelimit.MissingKeyPolicy;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a route with a {@code cost-header} charges once the response is known, on the in-process backend with a
 * clock that does not move: the header's cost less the estimate; the estimate when the header is missing or not a
 * whole number (logged once per limit, naming the limit, the route and the header); and a refresh that makes the
 * limit unable to carry a debt is refused like at start-up.
 */
@ExtendWith(OutputCaptureExtension.class)
class RouteCostsTest {

    private static final LimitSettings BUCKET = new LimitSettings(100L, Duration.ofMinutes(1), Algorithm.TOKEN_BUCKET,
            null, null, null, null, null, null, null, null, null, null, null);

    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private final RateLimiterRegistry registry = new RateLimiterRegistry(new LocalRateLimiter(clock), clock, 10);
    private final LiveLimits live = new LiveLimits(registry, new LocalLimitOverrideStore(), clock,
            Duration.ofMinutes(1), Duration.ofSeconds(1), (delay, task) -> () -> { });
    private final RouteRequest request = new RouteRequest("GET", PathContainer.parsePath("/llm/chat"), "127.0.0.1",
            HttpHeaders::new);
    private final RateLimitDecisionSink ignore = (policy, decision) -> { };

    @AfterEach
    void close() {
        live.close();
        registry.close();
    }

    private RouteLimits routes(String costOnFailure) {
        return RouteLimits.create(List.of(new RouteDefinition("llm", List.of("/llm/**"), List.of(), "", 5,
                        "X-Usage-Tokens", costOnFailure)), null, name -> name.equals("llm") ? BUCKET : LimitSettings.NONE,
                LimitSettings.NONE, MissingKeyPolicy.REJECT, registry, live);
    }

    private long remaining() {
        return registry.inspect("llm", "global").toCompletableFuture().join().remaining();
    }

    @Test
    void theHeadersCostIsChargedInPlaceOfTheEstimate() {
        RouteLimits routes = routes(null);

        routes.acquire(request, ignore).responded(Map.of("X-Usage-Tokens", "42")::get).join();
        routes.acquire(request, ignore).responded(Map.of("X-Usage-Tokens", " 0 ")::get).join();

        assertThat(remaining()).as("100 - 42 - 0").isEqualTo(58);
    }

    @Test
    void aMissingOrUnusableHeaderLeavesTheEstimateAndIsLoggedOncePerLimit(CapturedOutput output) {
        RouteLimits routes = routes("estimate");

        routes.acquire(request, ignore).responded(name -> null).join();
        routes.acquire(request, ignore).responded(Map.of("X-Usage-Tokens", "lots")::get).join();
        routes.acquire(request, ignore).responded(Map.of("X-Usage-Tokens", "-3")::get).join();

        assertThat(remaining()).as("three estimates of 5").isEqualTo(85);
        assertThat(output.getOut().split("cost header", -1)).as("one line").hasSize(2);
        assertThat(output.getOut()).contains("Rate limit 'llm' on guard.rate-limit.routes[0]: cost header "
                + "'X-Usage-Tokens' is missing in a response, so the permits taken at admission stand (logged once)");
    }

    @Test
    void aFailedRequestKeepsTheEstimateOrGetsItBackAsCostOnFailureSays() {
        routes("estimate").acquire(request, ignore).failed().join();
        assertThat(remaining()).isEqualTo(95);

        routes("none").acquire(request, ignore).failed().join();
        assertThat(remaining()).as("given back").isEqualTo(95);
    }

    @Test
    void aRefreshThatTurnsTheLimitIntoASlidingLogIsRefusedNamingTheCostHeader() {
        RouteLimits routes = routes(null);
        LimitSettings log = new LimitSettings(100L, Duration.ofMinutes(1), Algorithm.SLIDING_LOG, null, null, null,
                null, null, null, null, null, null, null, null);

        assertThatThrownBy(() -> routes.resolveAgain(name -> log, LimitSettings.NONE))
                .isInstanceOf(GuardAnnotationException.class)
                .hasMessageContaining("guard.rate-limit.routes[0]")
                .hasMessageContaining("cost-header")
                .hasMessageContaining("needs a TOKEN_BUCKET limit");
    }

    @Test
    void aRouteWithoutACostChargesNothingAfterTheResponse() {
        RouteLimits routes = RouteLimits.create(List.of(new RouteDefinition("llm", List.of("/llm/**"), List.of(), "",
                5)), null, name -> BUCKET, LimitSettings.NONE, MissingKeyPolicy.REJECT, registry, live);

        RouteCosts costs = routes.acquire(request, ignore);

        assertThat(costs.isEmpty()).isTrue();
        costs.responded(Map.of("X-Usage-Tokens", "42")::get).join();
        assertThat(remaining()).isEqualTo(95);
    }
}
