package io.guard.spring.actuate;

import io.guard.event.GuardEvent;
import io.guard.event.GuardEventListener;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Fans the events of every breaker and limiter out to the clients of {@code guardevents/stream}, whatever the web
 * stack. It starts listening when the first client arrives (until then breakers and limiters carry no extra
 * listener), follows breakers created later, and caps the number of clients so dashboards cannot exhaust threads.
 *
 * <p>On shutdown it ends every stream before the web server's graceful shutdown starts (it stops in the last
 * lifecycle phase), otherwise an open {@code curl -N} would hold shutdown for the whole grace period.
 */
final class GuardEventStream implements GuardEventListener, SmartLifecycle, DisposableBean {

    private final GuardRegistries registries;
    private final int queueSize;
    private final int maxSubscribers;
    private final ThreadPoolExecutor executor;
    private final List<EventSubscription> subscriptions = new CopyOnWriteArrayList<>();
    private final AtomicBoolean listening = new AtomicBoolean();
    private volatile boolean running;

    GuardEventStream(GuardRegistries registries, int queueSize, int maxSubscribers) {
        if (queueSize < 1) {
            throw new IllegalArgumentException(
                    "management.endpoint.guardevents.stream.queue-size must be at least 1 but was " + queueSize);
        }
        if (maxSubscribers < 1) {
            throw new IllegalArgumentException(
                    "management.endpoint.guardevents.stream.max-subscribers must be at least 1 but was "
                            + maxSubscribers);
        }
        this.registries = registries;
        this.queueSize = queueSize;
        this.maxSubscribers = maxSubscribers;
        // One thread per client at most; a slow client blocks only its own writer thread.
        this.executor = new ThreadPoolExecutor(maxSubscribers, maxSubscribers, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), new StreamThreads());
        this.executor.allowCoreThreadTimeOut(true);
    }

    /**
     * Adds a client, or returns empty when {@code max-subscribers} clients are already connected.
     *
     * @param filter which events the client wants
     * @param sink   writes one event to the client; throwing ends the subscription
     * @param onClose called once when the subscription ends, for whatever reason
     */
    Optional<EventSubscription> subscribe(Predicate<GuardEvent> filter, EventSubscription.Sink sink,
                                          Runnable onClose) {
        startListening();
        EventSubscription[] holder = new EventSubscription[1];
        EventSubscription subscription = new EventSubscription(filter, queueSize, executor, sink, () -> {
            subscriptions.remove(holder[0]);
            onClose.run();
        });
        holder[0] = subscription;
        synchronized (subscriptions) {
            if (subscriptions.size() >= maxSubscribers) {
                return Optional.empty();
            }
            subscriptions.add(subscription);
        }
        return Optional.of(subscription);
    }

    /** Clients connected now. */
    int subscribers() {
        return subscriptions.size();
    }

    /** The executor that writes to clients; exposed so a web adapter can hand off its own writes. */
    Executor executor() {
        return executor;
    }

    @Override
    public void onEvent(GuardEvent event) {
        for (EventSubscription subscription : subscriptions) {
            subscription.offer(event);
        }
    }

    @Override
    public void start() {
        running = true;
    }

    /** Ends every open stream; clients see the response complete. */
    @Override
    public void stop() {
        running = false;
        for (EventSubscription subscription : subscriptions) {
            subscription.close();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public void destroy() {
        stop();
        executor.shutdownNow();
    }

    private void startListening() {
        if (!listening.compareAndSet(false, true)) {
            return;
        }
        var breakers = registries.breakerRegistry();
        if (breakers != null) {
            // Called for the breakers that exist now and then once for each new one.
            breakers.addRegistryListener(breaker -> breaker.addListener(this));
        }
        var limiters = registries.limiterRegistry();
        if (limiters != null) {
            limiters.addListener(this);
        }
    }

    private static final class StreamThreads implements ThreadFactory {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable task) {
            Thread thread = new Thread(task, "guard-events-stream-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }
    }
}
