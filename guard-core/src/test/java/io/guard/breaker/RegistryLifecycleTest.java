package io.guard.breaker;

import io.guard.event.GuardEvent;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class RegistryLifecycleTest {

    @Test
    void anExistingBreakerKeepsTheConfigItWasCreatedWith() {
        CircuitBreakerRegistry registry = CircuitBreakerRegistry.ofDefaults();
        CircuitBreakerConfig first = CircuitBreakerConfig.builder().slidingWindowSize(5).build();
        CircuitBreaker b = registry.circuitBreaker("x", first);
        assertThat(registry.circuitBreaker("x", CircuitBreakerConfig.ofDefaults())).isSameAs(b);
        assertThat(b.config()).isEqualTo(first);
    }

    @Test
    void racingCreatorsNeverExceedTheBound() throws Exception {
        CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder().maxBreakers(10).build();
        AtomicInteger notified = new AtomicInteger();
        registry.addRegistryListener(b -> notified.incrementAndGet());
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                String name = "user-" + i;
                results.add(pool.submit(() -> {
                    try {
                        registry.circuitBreaker(name);
                        return true;
                    } catch (IllegalStateException refused) {
                        return false;
                    }
                }));
            }
            int created = 0;
            for (Future<Boolean> r : results) {
                created += r.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(created).isEqualTo(10);
            assertThat(registry.all()).hasSize(10);
            assertThat(notified.get()).isEqualTo(10);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Without an injected scheduler the registry runs its own timer thread; a real 1 ms wait, bounded. */
    @Test
    void ownTimerMovesOpenToHalfOpenAndStopsOnClose() throws Exception {
        try (CircuitBreakerRegistry registry = CircuitBreakerRegistry.ofDefaults()) {
            CircuitBreaker b = registry.circuitBreaker("timed", CircuitBreakerConfig.builder()
                    .waitDurationInOpenState(Duration.ofMillis(1))
                    .automaticTransitionFromOpenToHalfOpenEnabled(true).build());
            CountDownLatch halfOpen = new CountDownLatch(1);
            b.addListener(e -> {
                if (e.type() == GuardEvent.Type.STATE_TRANSITION && "HALF_OPEN".equals(e.details().get("to"))) {
                    halfOpen.countDown();
                }
            });
            b.transitionToOpenState();
            assertThat(halfOpen.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(Thread.getAllStackTraces().keySet()).anyMatch(th -> th.getName().equals("guard-breaker-timer"));
        }
    }
}
