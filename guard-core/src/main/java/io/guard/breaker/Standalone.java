package io.guard.breaker;

import io.guard.time.GuardClock;
import io.guard.time.Scheduler;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

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
        return new DefaultCircuitBreaker(name, config, clock, scheduler != null ? scheduler : new LazyTimer(name),
                CircuitBreakerRegistry.DEFAULT_EVENT_BUFFER_SIZE);
    }

    /**
     * One daemon timer thread for one breaker, started by the first timed transition and ended after a minute
     * without work, so a breaker that never needs a timer never has a thread, and a forgotten one leaks none.
     */
    private static final class LazyTimer implements Scheduler {

        private final String name;
        private ScheduledThreadPoolExecutor executor;

        LazyTimer(String name) {
            this.name = name;
        }

        @Override
        public synchronized Runnable schedule(Duration delay, Runnable task) {
            if (executor == null) {
                executor = new ScheduledThreadPoolExecutor(1, r -> {
                    Thread t = new Thread(r, "guard-breaker-timer-" + name);
                    t.setDaemon(true);
                    return t;
                });
                executor.setRemoveOnCancelPolicy(true);
                executor.setKeepAliveTime(1, TimeUnit.MINUTES);
                executor.allowCoreThreadTimeOut(true);
            }
            return Scheduler.of(executor).schedule(delay, task);
        }
    }
}
