package io.guard.breaker;

import io.guard.time.ManualClock;

import static io.guard.breaker.CircuitBreakerDecorators.executeRunnable;
import static io.guard.breaker.CircuitBreakerDecorators.executeSupplier;

/** A registry on a manual clock, so tests move time by hand and timers run when the clock passes them. */
final class TestBreakers {

    final ManualClock clock = new ManualClock();
    final CircuitBreakerRegistry registry;

    TestBreakers() {
        this(CircuitBreakerConfig.ofDefaults());
    }

    TestBreakers(CircuitBreakerConfig defaults) {
        registry = CircuitBreakerRegistry.builder().defaults(defaults).clock(clock).scheduler(clock).build();
    }

    CircuitBreaker breaker(CircuitBreakerConfig config) {
        return registry.circuitBreaker("test", config);
    }

    static void succeed(CircuitBreaker breaker, int times) {
        for (int i = 0; i < times; i++) {
            executeSupplier(breaker, () -> "ok");
        }
    }

    static void fail(CircuitBreaker breaker, int times) {
        for (int i = 0; i < times; i++) {
            try {
                executeRunnable(breaker, () -> {
                    throw new IllegalStateException("boom");
                });
            } catch (IllegalStateException expected) {
                // the breaker rethrows the call's own exception
            }
        }
    }
}
