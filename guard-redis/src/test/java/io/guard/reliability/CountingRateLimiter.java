package io.guard.reliability;

import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiter;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Passes every call to a backend and counts the attempts, successes and failures of {@code decide}, so a
 * test can see what reached Redis.
 */
final class CountingRateLimiter implements RateLimiter {

    private final RateLimiter backend;
    private final AtomicLong attempts = new AtomicLong();
    private final AtomicLong successes = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong lastSuccessNanos = new AtomicLong();
    private final ConcurrentLinkedQueue<long[]> admissions = new ConcurrentLinkedQueue<>();
    private final Clock timeline;

    /** @param timeline the backend's own clock, on which its admissions are stamped */
    CountingRateLimiter(RateLimiter backend, Clock timeline) {
        this.backend = backend;
        this.timeline = timeline;
    }

    long attempts() {
        return attempts.get();
    }

    long successes() {
        return successes.get();
    }

    long failures() {
        return failures.get();
    }

    /**
     * Every permit the backend granted, as {@code [asked, answered]} in microseconds on the backend's own clock: the
     * decision was taken somewhere in between, on the timeline the backend decides by (the JVM's monotonic clock and
     * the wall clock drift apart by enough to put a sixth admission inside a one-second window of the other), and at
     * its resolution. Guard's limiters count whole microseconds (a record taken at 10.000001 s expires at 11.000001 s);
     * stamped in nanoseconds, a call answered in the same microsecond as that expiry could look inside the first
     * call's one-second window when it is not, which once failed this test with a sixth admission.
     */
    List<long[]> admissions() {
        return new ArrayList<>(admissions);
    }

    /** {@code System.nanoTime()} when the backend last answered, or 0. */
    long lastSuccessNanos() {
        return lastSuccessNanos.get();
    }

    @Override
    public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
        attempts.incrementAndGet();
        long asked = now();
        return backend.decide(policy, key, permits).whenComplete((outcome, error) -> {
            if (error == null) {
                if (outcome.decision().allowed()) {
                    admissions.add(new long[] {asked, now()});
                }
                successes.incrementAndGet();
                lastSuccessNanos.set(System.nanoTime());
            } else {
                failures.incrementAndGet();
            }
        });
    }

    /** The backend's time as it reads it: whole microseconds, truncated, as {@code Micros.now} does. */
    private long now() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, timeline.instant());
    }

    @Override
    public String backendName() {
        return backend.backendName();
    }

    @Override
    public void close() {
        backend.close();
    }
}
