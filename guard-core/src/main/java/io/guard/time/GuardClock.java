package io.guard.time;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

/**
 * The one source of time for Guard's in-process parts: state timing and call durations read {@link #nanoTime()},
 * event timestamps read {@link #instant()}. Injecting one clock lets tests move all of them together by hand
 * ({@link ManualClock}) instead of sleeping.
 *
 * <p>Why not just {@link Clock}: durations need a monotonic nanosecond source that does not jump when the wall
 * clock is corrected, and {@code System.nanoTime()} is much cheaper than building an {@link Instant} per call.
 */
public interface GuardClock {

    /** Monotonic nanoseconds with an arbitrary origin; only differences are meaningful. */
    long nanoTime();

    /** Wall-clock time, for timestamps that humans read. */
    Instant instant();

    /** The JVM's clocks: {@code System.nanoTime()} and the UTC system clock. */
    static GuardClock system() {
        return SystemClock.INSTANCE;
    }

    /**
     * A clock that derives both readings from {@code clock}, e.g. a Spring-managed or test {@link Clock}.
     * Nanoseconds are the clock's instant since the epoch, so they only move when the clock does.
     */
    static GuardClock of(Clock clock) {
        Objects.requireNonNull(clock, "clock");
        return new GuardClock() {
            @Override
            public long nanoTime() {
                Instant now = clock.instant();
                return Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000_000L), now.getNano());
            }

            @Override
            public Instant instant() {
                return clock.instant();
            }
        };
    }
}
