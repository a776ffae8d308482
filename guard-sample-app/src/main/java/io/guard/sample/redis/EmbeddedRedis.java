package io.guard.sample.redis;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import redis.embedded.RedisServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * A redis-server process (the binary shipped in {@code com.github.codemonstur:embedded-redis}) on a free loopback
 * port, without persistence, owned by the application context that started it.
 */
final class EmbeddedRedis implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedis.class);
    private static final int ATTEMPTS = 3;

    private final RedisServer server;
    private final int port;

    private EmbeddedRedis(RedisServer server, int port) {
        this.server = server;
        this.port = port;
    }

    /**
     * Starts a server on a free port. The port is found by binding and releasing it, so another process may take it
     * in between; that race is retried with a fresh port.
     */
    static EmbeddedRedis start() {
        IOException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            int port = freeLoopbackPort();
            try {
                RedisServer server = RedisServer.newRedisServer()
                        .bind("127.0.0.1")
                        .port(port)
                        .setting("save \"\"")
                        .setting("appendonly no")
                        .onShutdownForceStop(true)
                        .build();
                server.start();
                return new EmbeddedRedis(server, port);
            } catch (IOException e) {
                last = e;
                log.debug("Embedded Redis did not start on port {} (attempt {} of {})", port, attempt, ATTEMPTS, e);
            }
        }
        throw new IllegalStateException("Could not start the embedded Redis after " + ATTEMPTS
                + " attempts; configure spring.data.redis.host/port to use a Redis server instead", last);
    }

    private static int freeLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not find a free loopback port for the embedded Redis", e);
        }
    }

    int port() {
        return port;
    }

    @Override
    public void destroy() throws IOException {
        server.stop();
        log.info("Stopped the embedded Redis on 127.0.0.1:{}", port);
    }
}
