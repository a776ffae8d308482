package io.guard.ratelimit.redis;

import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.ReplicaWait;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;

/**
 * A script call that ran on the primary, but whose {@code WAIT} afterwards counted fewer replicas than its
 * {@link ReplicaWait} asks for: the reply stands on the primary, and may be lost with it. The limiter grants no
 * admission on it (see {@link RedisRateLimiter}); a refusal in it stands.
 */
final class ReplicaShortfall extends RuntimeException {

    private final transient List<Object> reply;
    private final long acknowledged;

    ReplicaShortfall(long acknowledged, ReplicaWait wait, List<Object> reply) {
        super("acknowledged by " + acknowledged + " of " + wait.replicas() + " replicas within "
                + wait.timeout().toMillis() + " ms", null, false, false);
        this.reply = reply;
        this.acknowledged = acknowledged;
    }

    /** How many replicas the {@code WAIT} counted. */
    long acknowledged() {
        return acknowledged;
    }

    /** The script's reply, as the primary decided it. */
    List<Object> reply() {
        return reply;
    }

    /**
     * Completes {@code call} with {@code reply} once {@code acknowledged} replicas have it: normally when that is
     * what the call waits for, else with a {@link ReplicaShortfall} carrying the reply.
     */
    static void settle(ScriptCall call, List<Object> reply, long acknowledged) {
        if (acknowledged >= call.replicaWait().replicas()) {
            call.reply().complete(reply);
        } else {
            call.reply().completeExceptionally(new ReplicaShortfall(acknowledged, call.replicaWait(), reply));
        }
    }

    /** The strongest wait of {@code calls}: the most replicas, the longest timeout; {@code NONE} if none waits. */
    static ReplicaWait strongest(List<ScriptCall> calls) {
        if (calls.size() == 1 && calls.get(0).replicaWait().replicas() == 0) {
            return ReplicaWait.NONE; // the common case: one call that waits for no replica, read without a stream
        }
        return strongest(calls.stream().map(ScriptCall::replicaWait).toList());
    }

    /** The strongest of the policies' waits. */
    static ReplicaWait strongest(Stream<RateLimitPolicy> policies) {
        return strongest(policies.map(RateLimitPolicy::replicaWait).toList());
    }

    private static ReplicaWait strongest(Collection<ReplicaWait> waits) {
        int replicas = 0;
        long millis = 0;
        for (ReplicaWait wait : waits) {
            replicas = Math.max(replicas, wait.replicas());
            millis = Math.max(millis, wait.timeout().toMillis());
        }
        return replicas == 0 ? ReplicaWait.NONE : new ReplicaWait(replicas, Duration.ofMillis(millis));
    }
}
