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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * At most {@code maxConcurrentCalls} calls to one downstream at a time; the next one is refused at once
 * (no queue, no waiting). A breaker notices a slow downstream only after the fact; a bulkhead stops a slow one from
 * tying up every thread of the caller meanwhile, which is why it sits next to the breaker.
 *
 * <p>Every {@link #tryAcquire()} that returns true must be answered by exactly one {@link #release()}; the
 * decorators do that. A refusal is counted and published as a {@code NOT_PERMITTED} event (source
 * {@code BULKHEAD}).
 */
public final class Bulkhead {

    private static final Logger log = LoggerFactory.getLogger(Bulkhead.class);

    private final String name;
    private final int maxConcurrentCalls;
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
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("bulkhead name must not be blank but was '" + name + "'");
        }
        if (maxConcurrentCalls < 1) {
            throw new IllegalArgumentException("bulkhead '" + name + "': max-concurrent-calls must be at least 1 but was "
                    + maxConcurrentCalls);
        }
        this.name = name;
        this.maxConcurrentCalls = maxConcurrentCalls;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.buffer = new EventBuffer(eventBufferSize);
    }

    /** A bulkhead on the system clock keeping 100 events. */
    public static Bulkhead of(String name, int maxConcurrentCalls) {
        return new Bulkhead(name, maxConcurrentCalls, GuardClock.system(), 100);
    }

    public String name() {
        return name;
    }

    public int maxConcurrentCalls() {
        return maxConcurrentCalls;
    }

    /** Calls running now. */
    public int concurrentCalls() {
        return running.get();
    }

    /** Permits free now. */
    public int availablePermits() {
        return Math.max(0, maxConcurrentCalls - running.get());
    }

    /** Calls admitted since creation. */
    public long permittedCalls() {
        return permitted.sum();
    }

    /** Calls refused since creation. */
    public long refusedCalls() {
        return refused.sum();
    }

    /** Takes a permit if one is free; otherwise counts and publishes the refusal and returns false. */
    public boolean tryAcquire() {
        while (true) {
            int now = running.get();
            if (now >= maxConcurrentCalls) {
                refused.increment();
                publish(GuardEvent.Type.NOT_PERMITTED, Map.of("maxConcurrentCalls", Integer.toString(maxConcurrentCalls)));
                return false;
            }
            if (running.compareAndSet(now, now + 1)) {
                permitted.increment();
                return true;
            }
        }
    }

    /** Like {@link #tryAcquire()}, but throws {@link BulkheadFullException} on refusal. */
    public void acquire() {
        if (!tryAcquire()) {
            throw new BulkheadFullException(name, maxConcurrentCalls);
        }
    }

    /** Gives a permit back; more releases than acquisitions are ignored rather than creating permits. */
    public void release() {
        running.updateAndGet(n -> Math.max(0, n - 1));
    }

    public <T> T executeSupplier(Supplier<T> supplier) {
        acquire();
        try {
            return supplier.get();
        } finally {
            release();
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

    /** The permit is held until the stage completes; a refusal comes back as a failed stage. */
    public <T> Supplier<CompletionStage<T>> decorateCompletionStage(Supplier<? extends CompletionStage<T>> supplier) {
        return () -> {
            if (!tryAcquire()) {
                return CompletableFuture.failedFuture(new BulkheadFullException(name, maxConcurrentCalls));
            }
            CompletionStage<T> stage;
            try {
                stage = Objects.requireNonNull(supplier.get(), "the decorated supplier returned a null CompletionStage");
            } catch (Throwable e) {
                release();
                return CompletableFuture.failedFuture(e);
            }
            stage.whenComplete((result, error) -> release());
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
        return "Bulkhead[" + name + ", " + running.get() + "/" + maxConcurrentCalls + "]";
    }
}
