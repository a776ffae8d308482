package io.guard.breaker;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a breaker stays OPEN at its n-th consecutive opening, from its configuration: a custom function, or
 * the configured wait backed off and spread so that instances opened together do not probe together.
 */
final class OpenStateWait {

    private OpenStateWait() {
    }

    /** See {@link CircuitBreakerConfig#waitDurationInOpenState(int)}. */
    static Duration of(CircuitBreakerConfig config, int attempt) {
        if (config.waitIntervalFunctionInOpenState() != null) {
            Duration wait = config.waitIntervalFunctionInOpenState().apply(attempt);
            if (wait == null || wait.toMillis() < 1) {
                throw new IllegalStateException("wait-interval-function-in-open-state returned " + wait
                        + " for attempt " + attempt + "; it must return at least 1ms");
            }
            return wait;
        }
        long nanos = config.waitDurationInOpenState().toNanos();
        double multiplier = config.exponentialBackoffMultiplier();
        if (multiplier != 1.0 && attempt > 1) {
            double backedOff = nanos * Math.pow(multiplier, attempt - 1);
            nanos = (long) Math.min(config.exponentialMaxWaitDurationInOpenState().toNanos(), backedOff);
        }
        double factor = config.randomizedWaitFactor();
        if (factor > 0) {
            double spread = 1 + factor * (2 * ThreadLocalRandom.current().nextDouble() - 1);
            nanos = Math.max(1_000_000L, (long) (nanos * spread));
        }
        return Duration.ofNanos(nanos);
    }
}
