package io.guard.test.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes: every wait of the harness is bounded. */
final class Await {

    private static final long POLL_MILLIS = 50;

    private Await() {
    }

    /**
     * Returns once {@code condition} yields true; a condition that throws counts as false (a server on its way up).
     *
     * @throws IllegalStateException after {@code timeout}, saying what was awaited and the last error seen
     */
    static void until(Duration timeout, String what, Supplier<Boolean> condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (true) {
            try {
                if (Boolean.TRUE.equals(condition.get())) {
                    return;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("waited " + timeout.toMillis() + " ms for " + what
                        + (last == null ? "" : "; last error: " + last.getMessage()), last);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
    }
}
