package io.guard.breaker;

import io.guard.time.CallbackTimer;
import io.guard.time.GuardClock;
import io.guard.time.Scheduler;

import java.util.Objects;

/** Builds breakers that belong to no registry ({@link CircuitBreaker#of}). */
final class Standalone {

    private Standalone() {
    }

    static CircuitBreaker create(String name, CircuitBreakerConfig config, GuardClock clock, Scheduler scheduler) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("circuit breaker name must not be blank but was '" + name + "'");
        }
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(clock, "clock");
        return new DefaultCircuitBreaker(name, config, clock, scheduler != null ? scheduler
                : new CallbackTimer("guard-breaker-timer-" + name, "guard-breaker-callback-" + name,
                        CallbackTimer.DEFAULT_CALLBACK_THREADS),
                CircuitBreakerRegistry.DEFAULT_EVENT_BUFFER_SIZE);
    }
}
