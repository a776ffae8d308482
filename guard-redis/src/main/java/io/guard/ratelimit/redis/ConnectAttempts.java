package io.guard.ratelimit.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Makes a client's first connection without ever holding a caller's thread, and makes it again after a failed
 * attempt: Lettuce connects synchronously, and Redisson's lazy initialization connects synchronously on the first
 * command (retrying with its retry interval while Redis refuses), so while Redis is down either would keep a request
 * thread for seconds, out of reach of Guard's timeout. Here an attempt runs on a thread of its own
 * ({@value #THREAD_NAME}, a daemon that ends {@value #IDLE_SECONDS} s after the last attempt), one at a time; callers
 * chain on it, and once one attempt has succeeded its result is kept: from then on the client reconnects by itself,
 * asynchronously. Not {@link CompletableFuture}'s default executor: on a machine of one or two CPUs that starts a new
 * thread for every attempt, and elsewhere a blocking connect would hold a worker of the common pool.
 *
 * @param <T> what a successful attempt yields (a connection)
 */
final class ConnectAttempts<T> {

    static final String THREAD_NAME = "guard-redis-connect";
    static final long IDLE_SECONDS = 10;

    private final Supplier<CompletableFuture<T>> connect;
    private final ThreadPoolExecutor thread = connectThread();
    private final AtomicReference<CompletableFuture<T>> current = new AtomicReference<>();
    /** Actions waiting for the first successful attempt; see {@link #whenConnected}. */
    private final List<Consumer<T>> awaiting = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** @param connect starts an attempt; may block, may throw; its future completes when the client is connected */
    ConnectAttempts(Supplier<CompletableFuture<T>> connect) {
        this.connect = connect;
    }

    /** The connected result, else the attempt under way, else a new attempt (the last one failed, or none was made). */
    CompletableFuture<T> get() {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("connection closed"));
        }
        CompletableFuture<T> attempt = current.get();
        if (attempt != null && !attempt.isCompletedExceptionally()) {
            return attempt;
        }
        CompletableFuture<T> next = new CompletableFuture<>();
        if (!current.compareAndSet(attempt, next)) {
            return current.get();
        }
        CompletableFuture.supplyAsync(connect, thread).thenCompose(started -> started).whenComplete((connected, error) -> {
            if (error == null) {
                next.complete(connected);
                // After completing: an action added from now on finds the result itself (see whenConnected).
                for (Consumer<T> action : awaiting) {
                    if (awaiting.remove(action)) {
                        action.accept(connected);
                    }
                }
            } else {
                next.completeExceptionally(error);
            }
        });
        return next;
    }

    /**
     * Runs {@code action} once with the connected result: now if an attempt has succeeded, else when one does
     * (starting one if none is under way; after a failed attempt it waits for the next, see {@link #retryIfAwaited}),
     * unless {@link #forget forgotten} first.
     */
    void whenConnected(Consumer<T> action) {
        T made = connected();
        if (made == null) {
            awaiting.add(action);
            // Connected meanwhile: the attempt may have run its waiting actions before this one was added.
            made = connected();
            if (made == null || !awaiting.remove(action)) {
                get();
                return;
            }
        }
        action.accept(made);
    }

    /** {@code action}, given to {@link #whenConnected} and not run yet, will not be. */
    void forget(Consumer<T> action) {
        awaiting.remove(action);
    }

    /** Makes a new attempt if actions are waiting and the last attempt failed. */
    void retryIfAwaited() {
        if (!awaiting.isEmpty()) {
            get();
        }
    }

    /**
     * Hands {@code calls} to {@code send} with the connected result: at once when an attempt has succeeded, else
     * when the attempt under way (or a new one) does, with only the calls still unanswered by then (one answered
     * meanwhile timed out and was cancelled: it must not reach Redis); a failed attempt fails them.
     */
    void sendWhenConnected(List<ScriptCall> calls, BiConsumer<T, List<ScriptCall>> send) {
        T made = connected();
        if (made != null) {
            send.accept(made, calls);
            return;
        }
        get().whenComplete((connection, error) -> {
            List<ScriptCall> waiting = ScriptCall.unanswered(calls);
            if (error != null) {
                waiting.forEach(call -> call.reply().completeExceptionally(error));
            } else if (!waiting.isEmpty()) {
                send.accept(connection, waiting);
            }
        });
    }

    /** No attempt after this one; what the last attempt yields, now or once it succeeds, goes to {@code close}. */
    void close(Consumer<T> close) {
        // Once only: the backend and the bean that made the connection both close it on shutdown, and Lettuce warns
        // "Connection is already closed" for every second close.
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        thread.shutdown(); // an attempt under way still runs to its end
        CompletableFuture<T> attempt = current.get();
        if (attempt != null) {
            attempt.thenAccept(close);
        }
    }

    /**
     * Drops {@code stale}, the connected result, and hands it to {@code close}, so that the next {@link #get} makes a
     * fresh attempt at once; does nothing when {@code stale} is no longer the connected result or after
     * {@link #close}. Actions already run by {@link #whenConnected} are not run again on the fresh result.
     */
    void replace(T stale, Consumer<T> close) {
        CompletableFuture<T> attempt = current.get();
        if (closed || attempt == null || connected() != stale || !current.compareAndSet(attempt, null)) {
            return;
        }
        close.accept(stale);
    }

    private static ThreadPoolExecutor connectThread() {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, IDLE_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), task -> {
                    Thread made = new Thread(task, THREAD_NAME);
                    made.setDaemon(true);
                    return made;
                });
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /** The connected result if an attempt has succeeded, else {@code null}; never starts an attempt. */
    T connected() {
        CompletableFuture<T> attempt = current.get();
        return attempt != null && attempt.isDone() && !attempt.isCompletedExceptionally() ? attempt.join() : null;
    }
}
