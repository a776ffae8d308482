package io.guard.ratelimit;

import java.time.Duration;
import java.util.Objects;

/**
 * How many replicas must have a limit's spend before an admission is granted: Redis replicates asynchronously, so a
 * primary that fails right after a decision can take the spend with it, and the replica promoted in its place admits
 * it again. A backend that keeps replicas (Redis with Sentinel or Cluster) runs {@code WAIT replicas timeout} after
 * the decision, on the same connection, and grants an admission only once {@code replicas} replicas have it; when
 * fewer acknowledge within {@code timeout}, the admission is answered by the limit's failure policy instead (the spend
 * stays recorded on the primary), and a refusal stands as Redis decided it. A backend without replicas ignores it.
 *
 * <p>It trades latency (a replication round trip per batch of decisions, {@code timeout} at worst) for durability of
 * spends; {@link #NONE}, the default, waits for nothing.
 *
 * @param replicas replicas that must acknowledge; 0 waits for none
 * @param timeout  the longest {@code WAIT} blocks; at least 1 ms when {@code replicas > 0} (Redis reads 0 as "forever")
 */
public record ReplicaWait(int replicas, Duration timeout) {

    /** Waits for no replica: an admission is granted as soon as the primary decided it. */
    public static final ReplicaWait NONE = new ReplicaWait(0, Duration.ZERO);

    public ReplicaWait {
        Objects.requireNonNull(timeout, "wait-for-replicas-timeout must not be null");
        if (replicas < 0) {
            throw new IllegalArgumentException("wait-for-replicas must not be negative but was " + replicas);
        }
        if (replicas > 0 && timeout.toMillis() < 1) {
            throw new IllegalArgumentException("wait-for-replicas-timeout must be at least 1ms when waiting for "
                    + replicas + " replicas (Redis reads 0 as waiting forever) but was " + timeout);
        }
    }

    /** Whether a backend has to wait for anything. */
    public boolean waits() {
        return replicas > 0;
    }
}
