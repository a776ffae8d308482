package io.guard.ratelimit;

import io.guard.breaker.CircuitBreaker;
import io.guard.ratelimit.local.LocalRateLimiter;

import java.time.Clock;

/**
 * A {@link FailoverRateLimiter} that never finds the machine's CPU saturated, for tests that must see the other
 * evidence of the busy-client rule at work whatever the load of the machine running them.
 */
public final class IdleClientFailover {

    private IdleClientFailover() {
    }

    public static FailoverRateLimiter of(RateLimiter primary, CircuitBreaker breaker) {
        return new FailoverRateLimiter(primary, new LocalRateLimiter(Clock.systemUTC()), breaker, Clock.systemUTC(),
                null, ClientLoad.IDLE);
    }
}
