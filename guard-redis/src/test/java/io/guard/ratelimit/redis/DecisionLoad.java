package io.guard.ratelimit.redis;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimiterRegistry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bounded load for fault tests: {@code threads} threads take one permit of one limit at a time through a registry,
 * cycling through the keys, until stopped or for {@code maxRun} at most, and log every call with its key, start,
 * end and outcome.
 */
final class DecisionLoad {

    /** One call: start and end ({@code System.nanoTime()}), the decision or the error. */
    record Call(String key, long start, long end, Decision decision, Throwable error) {

        boolean admitted() {
            return decision != null && decision.allowed();
        }

        long millis() {
            return TimeUnit.NANOSECONDS.toMillis(end - start);
        }
    }

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
    private final CountDownLatch done;
    private final List<Throwable> crashes = new ArrayList<>();

    private DecisionLoad(int threads) {
        done = new CountDownLatch(threads);
    }

    static DecisionLoad start(RateLimiterRegistry registry, String limit, String key, int threads, Duration maxRun) {
        return start(registry, limit, List.of(key), threads, maxRun);
    }

    static DecisionLoad start(RateLimiterRegistry registry, String limit, List<String> keys, int threads,
                              Duration maxRun) {
        DecisionLoad load = new DecisionLoad(threads);
        long deadline = System.nanoTime() + maxRun.toNanos();
        for (int t = 0; t < threads; t++) {
            int offset = t;
            Thread thread = new Thread(() -> {
                try {
                    for (int i = offset; load.running.get() && System.nanoTime() - deadline < 0; i++) {
                        String key = keys.get(i % keys.size());
                        long start = System.nanoTime();
                        try {
                            Decision decision = registry.tryAcquire(limit, key, 1);
                            load.calls.add(new Call(key, start, System.nanoTime(), decision, null));
                        } catch (RuntimeException e) {
                            load.calls.add(new Call(key, start, System.nanoTime(), null, e));
                        }
                    }
                } catch (Throwable e) {
                    synchronized (load.crashes) {
                        load.crashes.add(e);
                    }
                } finally {
                    load.done.countDown();
                }
            }, "load-" + t);
            thread.setDaemon(true);
            thread.start();
        }
        return load;
    }

    /** Admissions answered so far. */
    long admitted() {
        return calls.stream().filter(Call::admitted).count();
    }

    /** Admissions of {@code key} answered so far. */
    long admitted(String key) {
        return calls.stream().filter(call -> call.key().equals(key) && call.admitted()).count();
    }

    /** Whether a call that started after {@code nanos} was admitted. */
    boolean admittedSince(long nanos) {
        return calls.stream().anyMatch(call -> call.start() > nanos && call.admitted());
    }

    /** Stops the threads (at most 30 s) and returns every call, in no particular order. */
    List<Call> stop() throws InterruptedException {
        running.set(false);
        assertThat(done.await(30, TimeUnit.SECONDS)).as("load threads stop").isTrue();
        assertThat(crashes).isEmpty();
        return new ArrayList<>(calls);
    }
}
