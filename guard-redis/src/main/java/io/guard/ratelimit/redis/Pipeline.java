package io.guard.ratelimit.redis;

import io.guard.ratelimit.BackendPulse;
import io.guard.ratelimit.Failures;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sends script calls so that a busy limiter costs Redis one read, one write and one script run per batch instead of
 * per decision: an idle lane sends a call at once; while a lane's batch is in flight, calls that arrive queue and leave together
 * as the next batch, as soon as the one in flight has been answered. A lane is a cluster node where the client can
 * tell (see {@link ScriptConnection#laneOf}), so a slow node holds back only its own calls. The decisions of a batch
 * that may share a script (all of them on one server, those of one hash slot on a cluster) run as one script that
 * decides them one after the other (see {@link ScriptBatches}).
 *
 * <p>Batching changes no decision: each script runs atomically on the server and decides its entries in order, so
 * a batch is the same decisions in some serial order, the order they are sent in. A batch is at most
 * {@code maxBatch} decisions; each script run keeps the client's own timeout and a batch's run failing fails each of
 * its decisions, exactly as a slow or failed single call would, so the failure policies above see nothing different.
 *
 * <p>It is also the backend's {@link BackendPulse}: it counts the batches Redis answered (one count per batch, not per
 * decision), so the failover can tell that Redis is alive while one call's reply is still on its way.
 */
final class Pipeline implements BackendPulse {

    /** Calls per batch unless told otherwise: enough to amortize a round trip, small enough to keep replies quick. */
    static final int DEFAULT_MAX_BATCH = 64;

    private final ScriptConnection connection;
    private final int maxBatch;
    private final Map<Object, Lane> lanes = new ConcurrentHashMap<>();
    private final LongAdder batches = new LongAdder();
    private final AtomicLong answered = new AtomicLong();

    Pipeline(ScriptConnection connection, int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("Redis batch size must be at least 1 but was " + maxBatch);
        }
        this.connection = connection;
        this.maxBatch = maxBatch;
    }

    /** The client's trace context on the calling thread, for a call made now (see {@link ScriptCall#trace()}). */
    Object traceContext() {
        return connection.traceContext();
    }

    /** Queues {@code call} on its lane; never throws: a failure to route or send it fails its reply. */
    void submit(ScriptCall call) {
        Object laneKey;
        try {
            laneKey = connection.laneOf(call.routingKey());
        } catch (RuntimeException e) {
            call.reply().completeExceptionally(e);
            return;
        }
        Lane lane = lanes.get(laneKey);
        (lane != null ? lane : lanes.computeIfAbsent(laneKey, key -> new Lane())).submit(call);
    }

    /** Batches Redis answered (at least one call of the batch got its reply) since start-up. */
    @Override
    public long replies() {
        return answered.get();
    }

    /** Batches sent since start-up, to see pipelining at work. */
    long batchesSent() {
        return batches.sum();
    }

    /** A failed reply that Redis still gave: {@code NOSCRIPT}, or a decision too few replicas acknowledged. */
    private static boolean answeredByRedis(CompletableFuture<?> failed) {
        try {
            failed.join();
            return false;
        } catch (CancellationException e) {
            return false;
        } catch (CompletionException e) {
            return ScriptRunner.isNoScript(e) || Failures.unwrap(e) instanceof ReplicaShortfall;
        }
    }

    /** One queue with at most one batch in flight. */
    private final class Lane {
        private final ArrayDeque<ScriptCall> waiting = new ArrayDeque<>();
        private boolean sending;

        void submit(ScriptCall call) {
            synchronized (this) {
                if (sending) {
                    waiting.add(call);
                    return;
                }
                if (call.reply().isDone()) {
                    return; // answered (cancelled) before it was sent: dropped, as a queued call would be
                }
                sending = true;
            }
            // An idle lane has nothing queued (it turns idle only once its queue is empty): the call leaves alone.
            sendFrom(List.of(call));
        }

        /** Sends batches while their replies come back at once (a dead connection), else when they come back. */
        private void sendFrom(List<ScriptCall> batch) {
            while (batch != null) {
                CompletableFuture<?>[] sent = send(batch);
                CompletableFuture<?> done = sent.length == 1 ? sent[0] : CompletableFuture.allOf(sent);
                if (!done.isDone()) {
                    done.whenComplete((ignored, error) -> {
                        count(sent);
                        List<ScriptCall> following = next();
                        if (following != null) {
                            sendFrom(following);
                        }
                    });
                    return;
                }
                count(sent);
                batch = next();
            }
        }

        /** Sends {@code batch}; returns the replies of its calls, in order. */
        private CompletableFuture<?>[] send(List<ScriptCall> batch) {
            CompletableFuture<?>[] replies = new CompletableFuture<?>[batch.size()];
            for (int i = 0; i < replies.length; i++) {
                replies[i] = batch.get(i).reply();
            }
            batches.increment();
            try {
                connection.send(ScriptBatches.merge(batch, connection::scriptGroup));
            } catch (RuntimeException | Error e) {
                for (CompletableFuture<?> reply : replies) {
                    reply.completeExceptionally(e);
                }
            }
            return replies;
        }

        /**
         * Counts {@code batch} as answered if Redis replied to any of its calls: a result, {@code NOSCRIPT} (Redis
         * answered; the call goes again by source) or a {@link ReplicaShortfall} (Redis decided; too few replicas
         * acknowledged it). A batch that only failed in the client or was cancelled does not
         * count.
         */
        private void count(CompletableFuture<?>[] batch) {
            for (CompletableFuture<?> reply : batch) {
                if (!reply.isCompletedExceptionally() || answeredByRedis(reply)) {
                    answered.incrementAndGet();
                    return;
                }
            }
        }

        /** The next batch, or {@code null} (and the lane idle again) when nothing waits. */
        private List<ScriptCall> next() {
            synchronized (this) {
                if (waiting.isEmpty()) {
                    sending = false;
                    return null;
                }
                List<ScriptCall> batch = new ArrayList<>(Math.min(waiting.size(), maxBatch));
                while (!waiting.isEmpty() && batch.size() < maxBatch) {
                    ScriptCall call = waiting.poll();
                    if (!call.reply().isDone()) { // a call answered while queued (cancelled) is not sent
                        batch.add(call);
                    }
                }
                return batch.isEmpty() ? next() : batch;
            }
        }
    }
}
