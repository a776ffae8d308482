package io.guard.test.redis;

import java.util.List;
import java.util.Objects;

/**
 * A Redis server a test may use, plus a key prefix that belongs to that test alone, so that tests sharing one
 * server never see each other's keys.
 *
 * @param host      where the server listens (a loopback address unless {@code GUARD_REDIS_URL} says otherwise)
 * @param port      the server's port
 * @param url       the address to give a client, {@code redis://127.0.0.1:port} (credentials kept if the
 *                  environment variable carried them)
 * @param keyPrefix unique to one test (or one test class for class-level parameters); ends with {@code ':'}
 * @param source    which source provided the server
 */
public record RedisEndpoint(String host, int port, String url, String keyPrefix, RedisSource source) {

    public RedisEndpoint {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(source, "source");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("Redis port must be in 1..65535 but was " + port);
        }
    }

    /** The same server with another key prefix. */
    public RedisEndpoint withKeyPrefix(String prefix) {
        return new RedisEndpoint(host, port, url, prefix, source);
    }

    /**
     * Runs one command over a fresh connection and returns the reply: a {@code String}, {@code Long},
     * {@code List<Object>} or {@code null}. Meant for assertions ({@code KEYS}, {@code PTTL}, {@code MEMORY USAGE})
     * and fault injection ({@code SCRIPT FLUSH}) without a client library.
     *
     * @throws IllegalStateException if Redis answers with an error or cannot be reached
     */
    public Object call(String... command) {
        return Resp.call(host, port, password(), command);
    }

    /**
     * As {@link #call(String...)}, in the numbered database ({@code SELECT} on the same connection first): what an
     * application that keeps its data in that database sees, e.g. {@code DBSIZE}.
     */
    public Object callIn(int database, String... command) {
        return Resp.call(host, port, password(), database, command);
    }

    /** The keys under this endpoint's prefix, sorted. */
    public List<String> keys() {
        return keysIn(0);
    }

    /** The keys under this endpoint's prefix in the numbered database, sorted. */
    public List<String> keysIn(int database) {
        List<String> keys = Resp.strings(callIn(database, "KEYS", Resp.escapeGlob(keyPrefix) + "*"));
        keys.sort(null);
        return keys;
    }

    private String password() {
        return RedisUrl.parse(url).password();
    }
}
