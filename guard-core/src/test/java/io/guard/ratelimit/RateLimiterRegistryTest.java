package io.guard.ratelimit;

import io.guard.event.GuardEvent;
import io.guard.ratelimit.local.LocalRateLimiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateLimiterRegistryTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final AtomicLong nanos = new AtomicLong();
    private final SwitchableBackend backend = new SwitchableBackend(new LocalRateLimiter(clock));
    private final RateLimiterRegistry registry = new RateLimiterRegistry(backend, clock, 10, nanos::get);
    private final List<GuardEvent> published = new ArrayList<>();
    private final List<String> observed = new ArrayList<>();

    RateLimiterRegistryTest() {
        registry.addListener(published::add);
        registry.addObserver(new RateLimitObserver() {
            @Override
            public void onDecision(RateLimitPolicy policy, Decision decision, long latencyNanos) {
                observed.add(policy.name() + (decision.allowed() ? " permitted" : " rejected"));
            }

            @Override
            public void onBackendError(RateLimitPolicy policy, Throwable error, long latencyNanos) {
                observed.add(policy.name() + " error " + error.getClass().getSimpleName());
            }
        });
    }

    @AfterEach
    void close() {
        registry.close();
        backend.close();
    }

    private static RateLimitPolicy policy(String name, long rate, BackendFailurePolicy onFailure) {
        return new RateLimitPolicy(name, Algorithm.SLIDING_LOG, rate, Duration.ofSeconds(1), 0, Scope.GLOBAL,
                TimeSource.CLIENT, onFailure);
    }

    @Test
    void anEmptyGroupHasNothingToDecideAndIsAllowed() {
        assertThat(registry.acquireAll(List.of(), Duration.ZERO).toCompletableFuture().join()).isEmpty();
        assertThat(registry.acquireAll(List.of(), Duration.ofSeconds(1)).toCompletableFuture().join()).isEmpty();
        assertThat(observed).isEmpty();
    }

    @Test
    void registersFindsAndReplacesPoliciesByName() {
        RateLimitPolicy first = registry.register(policy("orders", 2, BackendFailurePolicy.FAIL_OPEN));
        registry.tryAcquire("orders", "user-42", 1);
        RateLimitPolicy replacement = registry.register(policy("orders", 1, BackendFailurePolicy.FAIL_OPEN));

        assertThat(first.rate()).isEqualTo(2);
        assertThat(registry.find("orders")).contains(replacement);
        assertThat(registry.find("missing")).isEmpty();
        assertThat(registry.policies()).containsExactly(replacement);
        assertThat(registry.tryAcquire("orders", "user-42", 1).allowed()).as("the new rate applies").isFalse();
        assertThat(registry.stats("orders")).isEqualTo(new LimiterStats(1, 1, 0));
    }

    @Test
    void countsReportsAndPublishesEachRequestOnce() {
        registry.register(policy("orders", 1, BackendFailurePolicy.FAIL_OPEN));
        nanos.set(0);
        assertThat(registry.tryAcquire("orders", "user-42", 1).allowed()).isTrue();
        assertThat(registry.tryAcquire("orders", "user-42", 1).allowed()).isFalse();

        assertThat(registry.stats("orders")).isEqualTo(new LimiterStats(1, 1, 0));
        assertThat(observed).containsExactly("orders permitted", "orders rejected");
        assertThat(published).singleElement().satisfies(event -> {
            assertThat(event.source()).isEqualTo(GuardEvent.Source.RATE_LIMITER);
            assertThat(event.type()).isEqualTo(GuardEvent.Type.RATE_LIMITED);
            assertThat(event.name()).isEqualTo("orders");
            assertThat(event.details()).containsEntry("retryAfterMillis", "1000").containsEntry("limit", "1");
            assertThat(event.toString()).doesNotContain("user-42");
        });
        assertThat(registry.recentEvents("orders")).isEqualTo(published);
    }

    @Test
    void unknownNamesAndInvalidPermitsAreCallerErrors() {
        registry.register(policy("orders", 5, BackendFailurePolicy.FAIL_OPEN));

        assertThatThrownBy(() -> registry.tryAcquire("order", "k", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'order'").hasMessageContaining("[orders]");
        assertThatThrownBy(() -> registry.tryAcquireAsync("orders", "k", 6))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'orders'").hasMessageContaining("6");
        assertThatThrownBy(() -> registry.stats("nope")).isInstanceOf(IllegalArgumentException.class);
        assertThat(backend.calls).hasValue(0);
        assertThat(registry.stats("orders")).isEqualTo(new LimiterStats(0, 0, 0));
    }

    @Test
    void aFailingBackendIsAnErrorThatNamesNoKey() {
        registry.register(policy("orders", 5, BackendFailurePolicy.FAIL_CLOSED));
        backend.failing(true);
        clock.advance(Duration.ofSeconds(3));

        assertThatThrownBy(() -> registry.tryAcquire("orders", "user-42", 1))
                .isInstanceOf(RateLimiterBackendException.class);

        assertThat(registry.stats("orders")).isEqualTo(new LimiterStats(0, 0, 1));
        assertThat(observed).containsExactly("orders error RateLimiterBackendException");
        GuardEvent event = published.get(0);
        assertThat(event.type()).isEqualTo(GuardEvent.Type.BACKEND_FAILURE);
        assertThat(event.details()).containsEntry("onBackendFailure", "FAIL_CLOSED")
                .containsEntry("error", "RateLimiterBackendException <- IllegalStateException");
        assertThat(event.toString()).doesNotContain("user-42");
        BackendHealth health = registry.backendHealth();
        assertThat(health.up()).isFalse();
        assertThat(health.lastErrorTime()).isEqualTo(clock.instant());
        assertThat(health.toString()).doesNotContain("user-42");

        backend.failing(false);
        registry.tryAcquire("orders", "user-42", 1);
        assertThat(registry.backendHealth().up()).isTrue();
    }

    @Test
    void aThrowingListenerDisturbsNeitherTheCallNorOtherListeners() {
        RateLimiterRegistry quiet = new RateLimiterRegistry(backend, clock, 10, nanos::get);
        List<GuardEvent> seen = new ArrayList<>();
        quiet.addListener(event -> {
            throw new IllegalStateException("listener bug");
        });
        quiet.addListener(seen::add);
        quiet.register(policy("orders", 1, BackendFailurePolicy.FAIL_OPEN));

        quiet.tryAcquire("orders", "k", 1);
        assertThat(quiet.tryAcquire("orders", "k", 1).allowed()).isFalse();
        assertThat(seen).hasSize(1);
    }

    @Test
    void acquireCountsOnlyItsFinalAnswer() throws Exception {
        RateLimiterRegistry realTime = new RateLimiterRegistry(new LocalRateLimiter(java.time.Clock.systemUTC()),
                java.time.Clock.systemUTC(), 10);
        try {
            realTime.register(new RateLimitPolicy("wait", Algorithm.SLIDING_LOG, 1, Duration.ofMillis(200), 0,
                    Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_OPEN));
            realTime.tryAcquire("wait", "k", 1);
            Decision waited = realTime.acquire("wait", "k", 1, Duration.ofSeconds(2)).toCompletableFuture()
                    .get(5, TimeUnit.SECONDS);

            assertThat(waited.allowed()).isTrue();
            assertThat(realTime.stats("wait")).isEqualTo(new LimiterStats(2, 0, 0));
            assertThat(realTime.recentEvents("wait")).isEmpty();
        } finally {
            realTime.close();
            realTime.backend().close();
        }
    }
}
