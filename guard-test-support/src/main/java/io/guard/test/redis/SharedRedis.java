package io.guard.test.redis;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one Redis server all tests of a JVM share, found or started on first use and stopped when JUnit closes its
 * root store (a shutdown hook covers a JVM that exits before that). Hands out key prefixes unique per test and
 * per run, so tests, and runs against a long-lived {@code GUARD_REDIS_URL} server, never share keys.
 */
final class SharedRedis implements ExtensionContext.Store.CloseableResource {

    static final String URL_VARIABLE = "GUARD_REDIS_URL";
    private static final Logger log = LoggerFactory.getLogger(SharedRedis.class);

    private final String host;
    private final int port;
    private final String url;
    private final RedisSource source;
    private final AutoCloseable owned;
    private final Thread shutdownHook;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private final AtomicLong prefixes = new AtomicLong();

    private SharedRedis(String host, int port, String url, RedisSource source, AutoCloseable owned) {
        this.host = host;
        this.port = port;
        this.url = url;
        this.source = source;
        this.owned = owned;
        this.shutdownHook = new Thread(this::stopQuietly, "guard-redis-shutdown");
        if (owned != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
        log.info("Redis for tests: {} at {}:{}", source, host, port);
    }

    /** Tries the sources in order; fails (never skips) when none yields a server. */
    static SharedRedis start() {
        String configured = System.getenv(URL_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            RedisUrl parsed = RedisUrl.parse(configured);
            return new SharedRedis(parsed.host(), parsed.port(), configured.trim(), RedisSource.ENVIRONMENT, null);
        }
        StringBuilder attempts = new StringBuilder();
        try {
            Optional<GenericContainer<?>> container = ContainerRedis.start();
            if (container.isPresent()) {
                GenericContainer<?> c = container.get();
                int mapped = ContainerRedis.mappedPort(c);
                return new SharedRedis(c.getHost(), mapped, "redis://" + c.getHost() + ":" + mapped,
                        RedisSource.TESTCONTAINERS, c::stop);
            }
            attempts.append("Testcontainers: no Docker engine; ");
        } catch (RuntimeException e) {
            attempts.append("Testcontainers: ").append(e).append("; ");
            log.warn("Testcontainers could not start Redis, trying a local binary", e);
        }
        for (RedisSource binarySource : List.of(RedisSource.PATH_BINARY, RedisSource.EMBEDDED_BINARY)) {
            try {
                Optional<RedisBinary> binary = binarySource == RedisSource.PATH_BINARY
                        ? RedisBinary.onPath() : Optional.of(RedisBinary.embedded());
                if (binary.isEmpty()) {
                    attempts.append(binarySource).append(": no redis-server on PATH; ");
                    continue;
                }
                RedisProcess process = RedisProcess.startOnFreePort(binary.get(), List.of());
                log.info("Redis for tests runs {} ({})", binary.get().path(), binary.get().version());
                return new SharedRedis(process.host(), process.port(), RedisUrl.loopback(process.port()),
                        binarySource, process::stop);
            } catch (RuntimeException e) {
                attempts.append(binarySource).append(": ").append(e.getMessage()).append("; ");
            }
        }
        throw new IllegalStateException("No Redis for tests. Set " + URL_VARIABLE
                + ", start Docker, or install redis-server. Tried: " + attempts);
    }

    RedisEndpoint newEndpoint() {
        String prefix = "guard-test:" + runId + ":" + prefixes.incrementAndGet() + ":";
        return new RedisEndpoint(host, port, url, prefix, source);
    }

    @Override
    public void close() {
        if (owned != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the hook is running or has run; stopping twice is harmless
            }
        }
        stopQuietly();
    }

    private void stopQuietly() {
        if (owned == null) {
            return;
        }
        try {
            owned.close();
        } catch (Exception e) {
            log.warn("Could not stop the test Redis ({})", source, e);
        }
    }
}
