package io.guard.spring.autoconfigure.redis;

import io.guard.ratelimit.Failures;
import io.guard.ratelimit.redis.RedisRateLimiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Keeps a fresh instance from answering its first requests with a cold Redis connection: a decision that has to wait
 * for the connection, a {@code SCRIPT LOAD} or the client's first use of its codecs can run past
 * {@code guard.rate-limit.redis.timeout} and be answered by the failure policy (issue 22 measured 109-261 ms for a
 * first call). The warm-up ({@link RedisRateLimiter#warmUp()}) starts as soon as the limiter exists and runs while
 * the rest of the application is created; this lifecycle then waits for it, at most
 * {@code guard.rate-limit.redis.warm-up-timeout}, in a phase before the web server starts, so before the application
 * takes requests and before it reports ready.
 *
 * <p>Redis down must not stop the application: past the bound it starts with one WARN, limits decide by their
 * {@code on-backend-failure} meanwhile, and the warm-up is tried again in the background (after 1, 2, 4, then every
 * 5 s) until it succeeds or the application stops, so that Redis coming back finds a warm client.
 */
final class RedisWarmUp implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RedisWarmUp.class);

    /** Before {@code WebServerStartStopLifecycle} (Integer.MAX_VALUE - 2048 on both Boot lines). */
    static final int PHASE = Integer.MAX_VALUE - 4096;
    private static final long MAX_RETRY_DELAY_MILLIS = 5_000;

    private final Duration timeout;
    private final CompletableFuture<Void> warm = new CompletableFuture<>();
    private volatile RedisRateLimiter limiter;
    private volatile Throwable lastError;
    private volatile boolean running;
    private volatile boolean stopped;
    private volatile boolean warned;
    private volatile long began;
    private volatile long tookMillis;

    RedisWarmUp(Duration timeout) {
        this.timeout = timeout;
    }

    /** Starts warming {@code limiter} up now, without waiting. */
    void begin(RedisRateLimiter limiter) {
        this.limiter = limiter;
        this.began = System.nanoTime();
        attempt(1);
    }

    private void attempt(int number) {
        if (stopped) {
            return;
        }
        limiter.warmUp().whenComplete((done, error) -> {
            if (error == null) {
                tookMillis = millisSince(began);
                warm.complete(null);
                if (warned) {
                    log.info("Guard's Redis connection through {} is warm now ({} ms after the warm-up began); "
                            + "limits are decided in Redis again", limiter.clientName(), tookMillis);
                }
                return;
            }
            lastError = Failures.unwrap(error);
            long delay = Math.min(MAX_RETRY_DELAY_MILLIS, 1_000L << Math.min(number - 1, 10));
            log.debug("Guard's Redis warm-up attempt {} failed; next in {} ms", number, delay, error);
            CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS).execute(() -> attempt(number + 1));
        });
    }

    /** Waits for the warm-up, within the bound; never fails the start-up. */
    @Override
    public void start() {
        running = true;
        if (limiter == null) {
            return;
        }
        await();
        if (warm.isDone()) {
            log.info("Guard's Redis connection through {} is warm: connected, scripts loaded, decision path run once "
                    + "(in {} ms, while the application was being created)", limiter.clientName(), tookMillis);
            return;
        }
        warned = true;
        Throwable error = lastError;
        log.warn("Guard's Redis connection through {} was not warm within {} ms (guard.rate-limit.redis."
                + "warm-up-timeout): {}. The application starts anyway: until Redis answers, every limit decides by "
                + "its on-backend-failure policy; Guard keeps warming up in the background.", limiter.clientName(),
                timeout.toMillis(), error == null ? "still under way" : error.getMessage());
    }

    private void await() {
        if (timeout.isZero()) {
            return;
        }
        try {
            warm.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException stillCold) {
            // the warning below; a failed attempt is retried, so the future itself never fails
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void stop() {
        stopped = true;
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }
}
