package io.guard.breaker;

import io.guard.time.GuardClock;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A breaker's reading of time in nanoseconds when a {@link CircuitBreakerConfig#currentTimestampFunction()} is
 * configured: the function applied to the breaker's clock (seen as a {@link Clock}), in its unit, so that every
 * duration and wait the breaker measures comes from it. Without a function the breaker reads its clock directly.
 */
final class BreakerTime {

    private final Function<Clock, Long> timestamps;
    private final TimeUnit timestampUnit;
    private final Clock clockView;

    BreakerTime(GuardClock clock, CircuitBreakerConfig config) {
        this.timestamps = config.currentTimestampFunction();
        this.timestampUnit = config.timestampUnit();
        this.clockView = new GuardClockView(clock, ZoneOffset.UTC);
    }

    long nanos() {
        return timestampUnit.toNanos(timestamps.apply(clockView));
    }
}
