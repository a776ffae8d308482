package io.guard.test.redis;

import java.util.List;

/**
 * Redis servers a test owns outright, as opposed to the shared server behind {@link RedisExtension}. They are always
 * local processes (never a container, never {@code GUARD_REDIS_URL}), so a test may stop and restart them.
 */
public final class RedisServers {

    private RedisServers() {
    }

    /**
     * Starts a server of this test's own on a free loopback port, with persistence off.
     *
     * @param extraArguments further {@code redis-server} options, e.g. {@code "--cluster-enabled", "yes"}
     * @throws IllegalStateException if no binary runs here or the server does not come up
     */
    public static DedicatedRedis startDedicated(String... extraArguments) {
        return startDedicated(RedisBinary.locate(), List.of(extraArguments));
    }

    /** Likewise from a given binary: every node of one deployment runs the same. */
    static DedicatedRedis startDedicated(RedisBinary binary, List<String> extraArguments) {
        return new DedicatedRedis(RedisProcess.startOnFreePort(binary, extraArguments), binary.source());
    }

    /** The {@code redis-server} executable tests should run (on {@code PATH}, else the embedded one). */
    public static RedisBinary binary() {
        return RedisBinary.locate();
    }

    /** A loopback port that was free a moment ago. */
    public static int freePort() {
        return RedisProcess.freePort();
    }
}
