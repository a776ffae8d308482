package io.guard.spring.actuate;

import io.guard.event.GuardEvent;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * One live-stream client. The thread that caused an event only offers it to a bounded queue, which never blocks:
 * when the client reads slower than events happen, the newest events are dropped and counted, and the service's
 * callers never wait for a network write. A drain task on the stream's executor writes the queue to the client,
 * at most one task per subscription at a time, so events reach a client in order.
 */
final class EventSubscription {

    /** Writes one event to the client; throws when the client has gone. */
    @FunctionalInterface
    interface Sink {
        void send(GuardEvent event) throws Exception;
    }

    private final Predicate<GuardEvent> filter;
    private final ArrayBlockingQueue<GuardEvent> queue;
    private final Executor executor;
    private final Sink sink;
    private final Runnable onClose;
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong dropped = new AtomicLong();

    EventSubscription(Predicate<GuardEvent> filter, int queueSize, Executor executor, Sink sink, Runnable onClose) {
        this.filter = filter;
        this.queue = new ArrayBlockingQueue<>(queueSize);
        this.executor = executor;
        this.sink = sink;
        this.onClose = onClose;
    }

    /** Called on the event's thread: must stay cheap and must not throw. */
    void offer(GuardEvent event) {
        if (closed.get() || !filter.test(event)) {
            return;
        }
        if (!queue.offer(event)) {
            dropped.incrementAndGet();
        }
        scheduleDrain();
    }

    /** Events this client missed because its queue was full. */
    long dropped() {
        return dropped.get();
    }

    boolean isClosed() {
        return closed.get();
    }

    void close() {
        if (closed.compareAndSet(false, true)) {
            queue.clear();
            onClose.run();
        }
    }

    private void scheduleDrain() {
        if (!queue.isEmpty() && draining.compareAndSet(false, true)) {
            try {
                executor.execute(this::drain);
            }
            catch (RejectedExecutionException ex) {
                // The stream is shutting down; the client is cut off rather than left waiting.
                close();
            }
        }
    }

    private void drain() {
        try {
            GuardEvent event;
            while (!closed.get() && (event = queue.poll()) != null) {
                sink.send(event);
            }
        }
        catch (Exception ex) {
            // The client disconnected or its connection broke: nothing to report to anyone, just stop.
            close();
        }
        finally {
            draining.set(false);
        }
        // An event offered after the last poll but before draining was reset would otherwise wait for the next one.
        if (!closed.get()) {
            scheduleDrain();
        }
    }
}
