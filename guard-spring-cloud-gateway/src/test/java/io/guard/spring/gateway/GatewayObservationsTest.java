package io.guard.spring.gateway;

import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.local.LocalLimitOverrideStore;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.spring.observation.GuardObservations;
import io.guard.spring.ratelimit.LimitSettings;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
 * A gateway route's decision is a {@code guard.ratelimit.decision} observation (issue 26 item 2), a child of the
 * request's observation, with the route's limit, the outcome and {@code guard.method} naming the gateway's routes.
 */
class GatewayObservationsTest {

    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private final RateLimiterRegistry registry = new RateLimiterRegistry(new LocalRateLimiter(clock), clock, 10);
    private final LiveLimits live = new LiveLimits(registry, new LocalLimitOverrideStore(), clock,
            Duration.ofMinutes(1), Duration.ofSeconds(1), (delay, task) -> () -> { });
    private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
    private final ObservationRegistry observations = ObservationRegistry.create();
    private final RateLimitDecisionSink ignore = (policy, decision) -> { };

    GatewayObservationsTest() {
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

    private static String low(Observation.Context context, String key) {
        var value = context.getLowCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }

    @Test
    void eachDecisionIsObservedUnderTheRequestsObservation() {
        LimitSettings orders = new LimitSettings(1L, Duration.ofMinutes(1), null, null, null, null, null, null, null,
                null, null, null, null, null);
        GuardObservations guard = new GuardObservations(observations, null, null);
        GatewayLimits limits = new GatewayLimits(name -> name.equals("orders") ? orders : LimitSettings.NONE,
                LimitSettings.NONE, registry, live, () -> guard);
        var spec = limits.spec(new GatewayLimits.Use("orders", 1), "route 'orders'");
        Observation request = Observation.start("http.server.requests", observations);

        limits.acquire(spec, "user-1", ignore, request).toCompletableFuture().join();
        assertThatThrownBy(() -> limits.acquire(spec, "user-1", ignore, request).toCompletableFuture().join())
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(RateLimitExceededException.class);
        request.stop();

        List<Observation.Context> decisions = stopped.stream()
                .filter(context -> context.getName().equals("guard.ratelimit.decision")).toList();
        assertThat(decisions).hasSize(2).allSatisfy(context -> {
            assertThat(context.getParentObservation()).isSameAs(request);
            assertThat(low(context, "guard.limit")).isEqualTo("orders");
            assertThat(low(context, "guard.method")).isEqualTo(GuardObservations.GATEWAY);
        });
        assertThat(decisions).extracting(context -> low(context, "guard.outcome")).containsExactly("allowed", "refused");
    }

    @Test
    void withoutObservationsNothingIsObserved() {
        LimitSettings orders = new LimitSettings(5L, Duration.ofMinutes(1), null, null, null, null, null, null, null,
                null, null, null, null, null);
        GatewayLimits limits = new GatewayLimits(name -> orders, LimitSettings.NONE, registry, live, () -> null);
        limits.acquire(limits.spec(new GatewayLimits.Use("orders", 1), "route 'orders'"), "user-1", ignore, null)
                .toCompletableFuture().join();
        assertThat(stopped).isEmpty();
    }
}
