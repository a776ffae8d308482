package io.guard.sample.redis;

import org.springframework.core.env.Environment;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;

/**
 * The standalone Redis server that {@code spring.data.redis.*} points at (the {@code url} wins over
 * {@code host}/{@code port}, as in Spring Boot), and whether it accepts a TCP connection.
 */
record RedisTarget(String host, int port) {

    static final String DEFAULT_HOST = "localhost";
    static final int DEFAULT_PORT = 6379;

    static RedisTarget from(Environment environment) {
        String url = environment.getProperty("spring.data.redis.url");
        if (url != null && !url.isBlank()) {
            URI uri = URI.create(url.trim());
            if (uri.getHost() == null) {
                throw new IllegalStateException("spring.data.redis.url '" + url + "' names no host");
            }
            return new RedisTarget(uri.getHost(), uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort());
        }
        return new RedisTarget(environment.getProperty("spring.data.redis.host", DEFAULT_HOST),
                environment.getProperty("spring.data.redis.port", Integer.class, DEFAULT_PORT));
    }

    /** Whether something accepts a connection at this address within {@code timeout}. */
    boolean answers(Duration timeout) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), Math.toIntExact(timeout.toMillis()));
            return true;
        } catch (IOException | IllegalArgumentException unreachable) {
            return false;
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
