package io.guard.sample.scenario;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends GET /inventory/{sku} at a fixed rate whatever the answers take (an open loop, like real users), with at
 * most {@code maxInFlight} requests outstanding so that a stuck server cannot make the client exhaust memory.
 * Requests that would exceed the bound are not sent and are counted as shed.
 */
final class LoadGenerator {

    private static final int SKUS = 1_000;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient client;
    private final String baseUrl;
    private final Timeline timeline;
    private final Semaphore inFlight;
    private final AtomicLong shed = new AtomicLong();
    private final int maxInFlight;
    private long sequence;

    LoadGenerator(HttpClient client, String baseUrl, Timeline timeline, int maxInFlight) {
        this.client = client;
        this.baseUrl = baseUrl;
        this.timeline = timeline;
        this.maxInFlight = maxInFlight;
        this.inFlight = new Semaphore(maxInFlight);
    }

    /** Sends {@code perSecond} requests per second from now until {@code untilNanos}, evenly spaced. */
    void run(int perSecond, long untilNanos) {
        long gap = TimeUnit.SECONDS.toNanos(1) / perSecond;
        long next = System.nanoTime();
        while (next < untilNanos) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            send(next);
            next += gap;
        }
    }

    private void send(long scheduledNanos) {
        int slice = timeline.slice(scheduledNanos);
        if (slice < 0) {
            return;
        }
        if (!inFlight.tryAcquire()) {
            shed.incrementAndGet();
            return;
        }
        timeline.sent(slice);
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/inventory/SKU-" + (sequence++ % SKUS)))
                .timeout(REQUEST_TIMEOUT).GET().build();
        // Latency counts from the scheduled send time, so a client falling behind cannot hide server delays.
        client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
            long latency = System.nanoTime() - scheduledNanos;
            if (error == null && response.statusCode() == 200) {
                timeline.answered(slice, latency, response.body().contains("\"degraded\":true"));
            } else {
                timeline.failed(slice, latency);
            }
            inFlight.release();
        });
    }

    /** Requests not sent because {@code maxInFlight} were outstanding. */
    long shed() {
        return shed.get();
    }

    /** Waits up to {@code timeout} for every outstanding request to finish. */
    boolean drain(Duration timeout) throws InterruptedException {
        if (inFlight.tryAcquire(maxInFlight, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            inFlight.release(maxInFlight);
            return true;
        }
        return false;
    }
}
