package io.guard.ratelimit.redis;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.RateLimitPolicy;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Concurrent load on one key from several limiters, and the log of every admission: the wall-clock microseconds just
 * before the call and just after its answer (Redis on this host reads the same clock), so that the admissions of any
 * window can be counted afterwards.
 */
final class AdmissionLog {

    /** One admission: it happened between {@code before} and {@code after}. */
    record Admission(long before, long after) {
        long middle() {
            return before + (after - before) / 2;
        }
    }

    final ConcurrentLinkedQueue<Admission> admitted = new ConcurrentLinkedQueue<>();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong decisions = new AtomicLong();

    static long micros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    /**
     * {@code threads} threads call {@code limiter} for one permit of {@code key} for {@code duration}, pausing
     * {@code pause} between calls (zero: as fast as they can), at most {@code maxCalls} calls each.
     */
    List<Thread> load(RateLimiter limiter, RateLimitPolicy policy, String key, int threads, Duration duration,
                      Duration pause, int maxCalls) {
        long end = System.nanoTime() + duration.toNanos();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < maxCalls && System.nanoTime() < end; i++) {
                    long before = micros();
                    Decision decision = limiter.tryAcquire(policy, key, 1);
                    long after = micros();
                    decisions.incrementAndGet();
                    if (decision.allowed()) {
                        admitted.add(new Admission(before, after));
                    } else {
                        refused.incrementAndGet();
                    }
                    if (!pause.isZero()) {
                        java.util.concurrent.locks.LockSupport.parkNanos(pause.toNanos());
                    }
                }
            }, "admission-load-" + t);
            thread.start();
            started.add(thread);
        }
        return started;
    }

    static void join(List<Thread> threads) throws InterruptedException {
        for (Thread thread : threads) {
            thread.join(Duration.ofMinutes(2).toMillis());
        }
    }

    /**
     * Admissions per aligned window of {@code interval} microseconds, counting only those certainly in it (called and
     * answered within it); the admissions that straddle a boundary are returned in the last slot.
     */
    long[] perAlignedWindow(long interval, long from, int windows) {
        long[] counts = new long[windows + 1];
        for (Admission a : admitted) {
            long w = Math.floorDiv(a.before(), interval);
            if (w != Math.floorDiv(a.after(), interval)) {
                counts[windows]++;
                continue;
            }
            long index = w - Math.floorDiv(from, interval);
            if (index >= 0 && index < windows) {
                counts[(int) index]++;
            }
        }
        return counts;
    }

    /** The most admissions in any window of {@code length} microseconds, each admission at the middle of its call. */
    long mostInAnyWindow(long length) {
        long[] times = admitted.stream().mapToLong(Admission::middle).sorted().toArray();
        long most = 0;
        int from = 0;
        for (int to = 0; to < times.length; to++) {
            while (times[to] - times[from] >= length) {
                from++;
            }
            most = Math.max(most, to - from + 1);
        }
        return most;
    }

    long first() {
        return admitted.stream().mapToLong(Admission::before).min().orElse(0);
    }

    @Override
    public String toString() {
        return "decisions=" + decisions + " admitted=" + admitted.size() + " refused=" + refused;
    }

    static String show(long[] counts) {
        return Arrays.toString(counts);
    }
}
