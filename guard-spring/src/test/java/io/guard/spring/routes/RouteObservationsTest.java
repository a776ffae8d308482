package io.guard.spring.routes;

import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.spring.observation.GuardObservations;
import io.guard.spring.ratelimit.LimitSettings;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.ratelimit.MissingKeyPolicy;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.ratelimit.local.LocalLimitOverrideStore;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A decision of the URL-pattern limits is a {@code guard.ratelimit.decision} observation like an annotation's
 * (issue 26 item 2): the limit that answered, the outcome, the wait of a refusal, and {@code guard.method} saying the
 * limits come from {@code guard.rate-limit.routes}; a request no route matches is not observed.
 */
class RouteObservationsTest {

    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private final RateLimiterRegistry registry = new RateLimiterRegistry(new LocalRateLimiter(clock), clock, 10);
    private final LiveLimits live = new LiveLimits(registry, new LocalLimitOverrideStore(), clock,
            Duration.ofMinutes(1), Duration.ofSeconds(1), (delay, task) -> () -> { });
    private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
    private final ObservationRegistry observations = ObservationRegistry.create();
    private final RateLimitDecisionSink ignore = (policy, decision) -> { };

    RouteObservationsTest() {
        observations.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context);
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
    }

    @AfterEach
    void close() {
        live.close();
        registry.close();
    }

    private RouteLimits routes() {
        LimitSettings api = new LimitSettings(1L, Duration.ofMinutes(1), null, null, null, null, null, null, null,
                null, null, null, null, null);
        GuardObservations guard = new GuardObservations(observations, null, null);
        return RouteLimits.create(List.of(new RouteDefinition("api", List.of("/api/**"), List.of(), "", 1)), null,
                name -> name.equals("api") ? api : LimitSettings.NONE, LimitSettings.NONE, MissingKeyPolicy.REJECT,
                registry, live).observedBy(() -> guard);
    }

    private static RouteRequest get(String path) {
        return new RouteRequest("GET", PathContainer.parsePath(path), "127.0.0.1", HttpHeaders::new);
    }

    private static String low(Observation.Context context, String key) {
        var value = context.getLowCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }

    @Test
    void anAllowedAndARefusedRequestAreObservedWithTheRouteLimit() {
        RouteLimits routes = routes();
        routes.acquire(get("/api/orders"), ignore);
        assertThatThrownBy(() -> routes.acquire(get("/api/orders"), ignore))
                .isInstanceOf(RateLimitExceededException.class);

        assertThat(stopped).hasSize(2).allSatisfy(context -> {
            assertThat(context.getName()).isEqualTo("guard.ratelimit.decision");
            assertThat(low(context, "guard.limit")).isEqualTo("api");
            assertThat(low(context, "guard.method")).isEqualTo(GuardObservations.ROUTES);
        });
        assertThat(low(stopped.get(0), "guard.outcome")).isEqualTo("allowed");
        assertThat(low(stopped.get(1), "guard.outcome")).isEqualTo("refused");
        assertThat(stopped.get(1).getHighCardinalityKeyValue("guard.retry-after")).isNotNull();
        assertThat(stopped.get(1).getError()).as("a refusal is not an error").isNull();
    }

    @Test
    void aRequestNoRouteMatchesIsNotObserved() {
        routes().acquire(get("/public/page"), ignore);
        assertThat(stopped).isEmpty();
    }

    @Test
    void anAsynchronousDecisionIsAChildOfTheGivenParentAndEndsWithItsOutcome() {
        RouteLimits routes = routes();
        Observation parent = Observation.start("http.server.requests", observations);
        routes.acquireAsync(get("/api/orders"), ignore, parent).toCompletableFuture().join();
        assertThatThrownBy(() -> routes.acquireAsync(get("/api/orders"), ignore, parent).toCompletableFuture().join())
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(RateLimitExceededException.class);
        parent.stop();

        List<Observation.Context> decisions = stopped.stream()
                .filter(context -> context.getName().equals("guard.ratelimit.decision")).toList();
        assertThat(decisions).hasSize(2)
                .allSatisfy(context -> assertThat(context.getParentObservation()).isSameAs(parent));
        assertThat(decisions).extracting(context -> low(context, "guard.outcome")).containsExactly("allowed", "refused");
    }
}
