package io.guard.benchmarks.adaptive;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The downstream of {@link AdaptiveLoad}: a fixed number of workers (its capacity) and a queue without bound in
 * front of them, as a database pool or a small service is; each call holds a worker for the service time of the moment
 * it starts, 10 ms while healthy and 500 ms while slow. Beyond its capacity calls wait in the queue, so the latency a
 * caller sees is the service time plus the queue.
 */
final class SlowingDownstream implements AutoCloseable {

    private final ExecutorService workers;
    private final long startNanos;
    private final long slowFromNanos;
    private final long slowUntilNanos;

    /** Slow between {@code slowFrom} and {@code slowUntil} seconds after {@code startNanos}. */
    SlowingDownstream(int capacity, long startNanos, int slowFrom, int slowUntil) {
        this.workers = Executors.newFixedThreadPool(capacity, r -> {
            Thread t = new Thread(r, "downstream");
            t.setDaemon(true);
            return t;
        });
        this.startNanos = startNanos;
        this.slowFromNanos = TimeUnit.SECONDS.toNanos(slowFrom);
        this.slowUntilNanos = TimeUnit.SECONDS.toNanos(slowUntil);
    }

    /** One call; the caller waits on the future. */
    Future<String> call() {
        return workers.submit(() -> {
            long elapsed = System.nanoTime() - startNanos;
            boolean slow = elapsed >= slowFromNanos && elapsed < slowUntilNanos;
            Thread.sleep(slow ? 500 : 10);
            return "ok";
        });
    }

    @Override
    public void close() {
        workers.shutdownNow();
    }
}
