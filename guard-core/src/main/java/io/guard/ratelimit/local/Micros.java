package io.guard.ratelimit.local;

import io.guard.ratelimit.Decision;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;

/** Microseconds, the unit the scripts count in, so that both backends agree to the microsecond. */
final class Micros {

    private Micros() {
    }

    static long of(Duration duration) {
        return TimeUnit.MICROSECONDS.convert(duration);
    }

    static long now(Clock clock) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant());
    }

    static Decision decision(boolean allowed, long remaining, long retryMicros, long resetMicros, long limit) {
        return new Decision(allowed, remaining, Duration.of(retryMicros, ChronoUnit.MICROS),
                Duration.of(resetMicros, ChronoUnit.MICROS), limit);
    }
}
