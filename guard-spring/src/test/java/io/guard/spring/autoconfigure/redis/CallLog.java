package io.guard.spring.autoconfigure.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bounded load for a fault test: {@code callers} threads call a guarded method with their own key
 * ({@code name-0}, {@code name-1}, ...) one call after the other, until stopped or for {@code maxRun} at most, and
 * log every call with its start, end ({@link System#nanoTime()}) and the exception it threw, if any.
 */
final class CallLog {

    /** One call: its key, start and end, and what it threw ({@code null}: admitted). */
    record Call(String key, long start, long end, Throwable error) {

        boolean admitted() {
            return error == null;
        }
    }

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Throwable> crashes = new ConcurrentLinkedQueue<>();
    private final CountDownLatch done;

    private CallLog(int callers) {
        done = new CountDownLatch(callers);
    }

    static CallLog start(String name, int callers, Duration maxRun, Consumer<String> call) {
        CallLog log = new CallLog(callers);
        long deadline = System.nanoTime() + maxRun.toNanos();
        for (int i = 0; i < callers; i++) {
            String key = name + "-" + i;
            Thread thread = new Thread(() -> {
                try {
                    while (log.running.get() && System.nanoTime() - deadline < 0) {
                        long start = System.nanoTime();
                        try {
                            call.accept(key);
                            log.calls.add(new Call(key, start, System.nanoTime(), null));
                        } catch (RuntimeException e) {
                            log.calls.add(new Call(key, start, System.nanoTime(), e));
                        }
                    }
                } catch (Throwable e) {
                    log.crashes.add(e);
                } finally {
                    log.done.countDown();
                }
            }, "caller-" + key);
            thread.setDaemon(true);
            thread.start();
        }
        return log;
    }

    /** Admissions of calls that started after {@code nanos}. */
    long admittedSince(long nanos) {
        return calls.stream().filter(call -> call.start() - nanos > 0 && call.admitted()).count();
    }

    /** Stops the callers (waiting 30 s at most) and returns every call, in no particular order. */
    List<Call> stop() throws InterruptedException {
        running.set(false);
        assertThat(done.await(30, TimeUnit.SECONDS)).as("callers stop").isTrue();
        assertThat(crashes).isEmpty();
        return new ArrayList<>(calls);
    }

    static long since(List<Call> calls, long nanos) {
        return calls.stream().filter(call -> call.start() - nanos >= 0).count();
    }

    static long failuresSince(List<Call> calls, long nanos) {
        return calls.stream().filter(call -> call.start() - nanos >= 0 && !call.admitted()).count();
    }

    /** Start of the first failed call that started after {@code nanos}; {@code nanos} if none failed. */
    static long firstFailure(List<Call> calls, long nanos) {
        return calls.stream().filter(call -> call.start() - nanos >= 0 && !call.admitted()).mapToLong(Call::start)
                .min().orElse(nanos);
    }

    /** End of the last failed call; 0 if none failed. */
    static long lastFailureEnd(List<Call> calls) {
        return calls.stream().filter(call -> !call.admitted()).mapToLong(Call::end).max().orElse(0);
    }

    /** Start of the first admitted call that started after {@code nanos}. */
    static long firstAdmissionAfter(List<Call> calls, long nanos) {
        return calls.stream().filter(call -> call.start() - nanos >= 0 && call.admitted()).mapToLong(Call::start)
                .min().orElseThrow(() -> new AssertionError("no admission after " + nanos));
    }

    static long admitted(List<Call> calls, String key) {
        return calls.stream().filter(call -> call.key().equals(key) && call.admitted()).count();
    }

    @SafeVarargs
    static long slowestMillis(List<Call>... logs) {
        long slowest = 0;
        for (List<Call> log : logs) {
            for (Call call : log) {
                slowest = Math.max(slowest, call.end() - call.start());
            }
        }
        return TimeUnit.NANOSECONDS.toMillis(slowest);
    }
}
