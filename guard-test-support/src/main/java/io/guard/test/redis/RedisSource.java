package io.guard.test.redis;

/** Where the Redis a test talks to came from, in the order the harness tries them. */
public enum RedisSource {
    /** The server named by the {@code GUARD_REDIS_URL} environment variable; the only Redis the harness did not start. */
    ENVIRONMENT,
    /** A {@code redis:7-alpine} container, when a Docker engine answers. */
    TESTCONTAINERS,
    /** A {@code redis-server} found on {@code PATH}, started on a free loopback port. */
    PATH_BINARY,
    /** The Linux/macOS/Windows binary shipped inside {@code com.github.codemonstur:embedded-redis}. */
    EMBEDDED_BINARY
}
