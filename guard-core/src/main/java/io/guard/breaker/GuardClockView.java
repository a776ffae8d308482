package io.guard.breaker;

import io.guard.time.GuardClock;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;

/**
 * A breaker's {@link GuardClock} seen as a {@link Clock}, for a configured
 * {@link CircuitBreakerConfig#currentTimestampFunction()} (Resilience4j's functions take a {@code Clock}), so that a
 * test that moves the registry's clock moves the function's readings too.
 */
final class GuardClockView extends Clock {

    private final GuardClock clock;
    private final ZoneId zone;

    GuardClockView(GuardClock clock, ZoneId zone) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.zone = Objects.requireNonNull(zone, "zone");
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new GuardClockView(clock, zone);
    }

    @Override
    public Instant instant() {
        return clock.instant();
    }
}
