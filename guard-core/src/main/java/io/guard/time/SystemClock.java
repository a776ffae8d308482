package io.guard.time;

import java.time.Clock;
import java.time.Instant;

/** The JVM's clocks; a stateless singleton, so sharing it across registries shares nothing mutable. */
enum SystemClock implements GuardClock {
    INSTANCE;

    private static final Clock UTC = Clock.systemUTC();

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Instant instant() {
        return UTC.instant();
    }
}
