package io.guard.reliability;

import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiter;

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

    CountingRateLimiter(RateLimiter backend) {
        this.backend = backend;
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
     * Every permit the backend granted, as {@code [asked, answered]} in {@code System.nanoTime()}: the decision was
     * taken somewhere in between.
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
        long asked = System.nanoTime();
        return backend.decide(policy, key, permits).whenComplete((outcome, error) -> {
            if (error == null) {
                if (outcome.decision().allowed()) {
                    admissions.add(new long[] {asked, System.nanoTime()});
                }
                successes.incrementAndGet();
                lastSuccessNanos.set(System.nanoTime());
            } else {
                failures.incrementAndGet();
            }
        });
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
