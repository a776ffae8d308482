package io.guard.bulkhead;

import io.guard.event.EventBuffer;
import io.guard.event.GuardEvent;
import io.guard.event.GuardEventListener;
import io.guard.time.GuardClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * At most {@link #maxConcurrentCalls()} calls to one downstream at a time; the next one is refused at once
 * (no queue, no waiting). A breaker notices a slow downstream only after the fact; a bulkhead stops a slow one from
 * tying up every thread of the caller meanwhile, which is why it sits next to the breaker.
 *
 * <p>The bound is a {@link ConcurrencyLimit}: fixed, or adaptive (it learns from the latency of the calls that end,
 * so it falls when the downstream slows and rises when it recovers). Every {@link #tryAcquire()} that returns a
 * {@link Permit} must be answered by one of the permit's outcomes; the decorators do that. A refusal is counted and
 * published as a {@code NOT_PERMITTED} event (source {@code BULKHEAD}).
 */
public final class Bulkhead {

    private static final Logger log = LoggerFactory.getLogger(Bulkhead.class);

    private final String name;
    private final ConcurrencyLimit limit;
    private final Duration retryAfter;
    private final GuardClock clock;
    private final AtomicInteger running = new AtomicInteger();
    private final LongAdder permitted = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final EventBuffer buffer;
    private final List<GuardEventListener> listeners = new CopyOnWriteArrayList<>();

    /**
     * @param maxConcurrentCalls calls allowed at once; at least 1
     * @param eventBufferSize    recent events kept; at least 1
     */
    public Bulkhead(String name, int maxConcurrentCalls, GuardClock clock, int eventBufferSize) {
        this(name, fixed(name, maxConcurrentCalls), null, clock, eventBufferSize);
    }

    /**
     * @param limit           the bound, fixed or adaptive
     * @param retryAfter      the {@code Retry-After} hint of a refusal; null for none (a fixed bound cannot know
     *                        when a running call ends)
     * @param eventBufferSize recent events kept; at least 1
     */
    public Bulkhead(String name, ConcurrencyLimit limit, Duration retryAfter, GuardClock clock, int eventBufferSize) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("bulkhead name must not be blank but was '" + name + "'");
        }
        if (retryAfter != null && retryAfter.isNegative()) {
            throw new IllegalArgumentException("bulkhead '" + name + "': retry-after must not be negative but was "
                    + retryAfter);
        }
        this.name = name;
        this.limit = Objects.requireNonNull(limit, "limit");
        this.retryAfter = retryAfter;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.buffer = new EventBuffer(eventBufferSize);
    }

    private static ConcurrencyLimit fixed(String name, int maxConcurrentCalls) {
        if (maxConcurrentCalls < 1) {
            throw new IllegalArgumentException("bulkhead '" + name + "': max-concurrent-calls must be at least 1 but was "
                    + maxConcurrentCalls);
        }
        return ConcurrencyLimit.fixed(maxConcurrentCalls);
    }

    /** A bulkhead on the system clock keeping 100 events. */
    public static Bulkhead of(String name, int maxConcurrentCalls) {
        return new Bulkhead(name, maxConcurrentCalls, GuardClock.system(), 100);
    }

    public String name() {
        return name;
    }

    /** Calls allowed at once now: the fixed bound, or where the adaptive limit stands. */
    public int maxConcurrentCalls() {
        return limit.limit();
    }

    /** What moves the bound: {@code fixed}, or the adaptive algorithm's name. */
    public String algorithm() {
        return limit.algorithm();
    }

    /** The {@code Retry-After} hint its refusals carry; empty for none. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** Calls running now. */
    public int concurrentCalls() {
        return running.get();
    }

    /** Permits free now. */
    public int availablePermits() {
        return Math.max(0, limit.limit() - running.get());
    }

    /** Calls admitted since creation. */
    public long permittedCalls() {
        return permitted.sum();
    }

    /** Calls refused since creation. */
    public long refusedCalls() {
        return refused.sum();
    }

    /** Takes a permit if one is free; otherwise counts and publishes the refusal and returns null. */
    public Permit tryAcquire() {
        while (true) {
            int now = running.get();
            int max = limit.limit();
            if (now >= max) {
                refused.increment();
                publish(GuardEvent.Type.NOT_PERMITTED, Map.of("maxConcurrentCalls", Integer.toString(max)));
                return null;
            }
            if (running.compareAndSet(now, now + 1)) {
                permitted.increment();
                return new Permit(clock.nanoTime(), now + 1);
            }
        }
    }

    /** Like {@link #tryAcquire()}, but throws {@link BulkheadFullException} on refusal. */
    public Permit acquire() {
        Permit permit = tryAcquire();
        if (permit == null) {
            throw full();
        }
        return permit;
    }

    /** The exception a refusal is answered with: the bound now and the {@code Retry-After} hint. */
    public BulkheadFullException full() {
        return new BulkheadFullException(name, limit.limit(), retryAfter);
    }

    /** Calls {@code supplier} under a permit: a value is a sample of the limit, an exception is none. */
    public <T> T executeSupplier(Supplier<T> supplier) {
        Permit permit = acquire();
        try {
            T value = supplier.get();
            permit.onSuccess();
            return value;
        } finally {
            permit.release();
        }
    }

    public <T> Supplier<T> decorateSupplier(Supplier<T> supplier) {
        return () -> executeSupplier(supplier);
    }

    public Runnable decorateRunnable(Runnable runnable) {
        return () -> executeSupplier(() -> {
            runnable.run();
            return null;
        });
    }

    /**
     * The permit is held until the stage completes; a refusal comes back as a failed stage. A value is a sample, a
     * {@link TimeoutException} a drop, any other failure neither.
     */
    public <T> Supplier<CompletionStage<T>> decorateCompletionStage(Supplier<? extends CompletionStage<T>> supplier) {
        return () -> {
            Permit permit = tryAcquire();
            if (permit == null) {
                return CompletableFuture.failedFuture(full());
            }
            CompletionStage<T> stage;
            try {
                stage = Objects.requireNonNull(supplier.get(), "the decorated supplier returned a null CompletionStage");
            } catch (Throwable e) {
                permit.release();
                return CompletableFuture.failedFuture(e);
            }
            stage.whenComplete((result, error) -> {
                Throwable cause = error instanceof CompletionException ? error.getCause() : error;
                if (error == null) {
                    permit.onSuccess();
                } else if (cause instanceof TimeoutException) {
                    permit.onDropped();
                } else {
                    permit.release();
                }
            });
            return stage;
        };
    }

    public void addListener(GuardEventListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Recent events (refusals), newest first. */
    public List<GuardEvent> recentEvents() {
        return buffer.newestFirst();
    }

    private void publish(GuardEvent.Type type, Map<String, String> details) {
        GuardEvent event = new GuardEvent(GuardEvent.Source.BULKHEAD, name, type, clock.instant(), Duration.ZERO,
                details);
        buffer.onEvent(event);
        for (GuardEventListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (Throwable e) {
                log.warn("Bulkhead '{}': event listener {} threw on {}", name, listener, type, e);
            }
        }
    }

    @Override
    public String toString() {
        return "Bulkhead[" + name + ", " + running.get() + "/" + limit.limit() + " " + limit.algorithm() + "]";
    }

    /**
     * One admitted call. The first of its outcomes gives the permit back and the others do nothing, so that a
     * timeout and a late completion of the same call count once: {@link #onSuccess()} (the call answered; its
     * latency is a sample of the limit), {@link #onDropped()} (it timed out: a sign of overload) or
     * {@link #release()} (its outcome says nothing about the downstream: an error, a cancellation).
     */
    public final class Permit {

        private final long startNanos;
        private final int inflight;
        private final AtomicBoolean ended = new AtomicBoolean();

        private Permit(long startNanos, int inflight) {
            this.startNanos = startNanos;
            this.inflight = inflight;
        }

        /** The call answered: its latency is a sample. */
        public void onSuccess() {
            end(true, false);
        }

        /** The call timed out: a drop, which an adaptive limit answers by falling. */
        public void onDropped() {
            end(true, true);
        }

        /** Gives the permit back without a sample. */
        public void release() {
            end(false, false);
        }

        private void end(boolean sample, boolean dropped) {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            running.decrementAndGet();
            if (sample) {
                try {
                    limit.onSample(startNanos, clock.nanoTime() - startNanos, inflight, dropped);
                } catch (RuntimeException e) {
                    log.warn("Bulkhead '{}': its {} limit failed on a sample", name, limit.algorithm(), e);
                }
            }
        }
    }
}
