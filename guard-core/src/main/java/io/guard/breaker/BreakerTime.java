package io.guard.breaker;

import io.guard.time.GuardClock;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A breaker's reading of time in nanoseconds: its clock's own, or the configured
 * {@link CircuitBreakerConfig#currentTimestampFunction()} applied to that clock, so that every duration and wait a
 * breaker measures comes from one source.
 */
final class BreakerTime {

    private final GuardClock clock;
    private final Function<Clock, Long> timestamps; // null: the clock's nanoTime, the common case
    private final TimeUnit timestampUnit;
    private final Clock clockView;

    BreakerTime(GuardClock clock, CircuitBreakerConfig config) {
        this.clock = clock;
        this.timestamps = config.currentTimestampFunction();
        this.timestampUnit = config.timestampUnit();
        this.clockView = timestamps == null ? null : new GuardClockView(clock, ZoneOffset.UTC);
    }

    long nanos() {
        return timestamps == null ? clock.nanoTime() : timestampUnit.toNanos(timestamps.apply(clockView));
    }
}
