package io.guard.test.redis;

import java.time.Duration;
import java.util.Map;

/**
 * A Redis server owned by one test, for fault injection: {@link #stop()} makes it unreachable, {@link #start()}
 * brings an empty server back on the same port, so clients configured with {@link #url()} reconnect by themselves;
 * {@link #kill()} crashes it (SIGKILL) and {@link #freeze()} stops it without closing a socket (SIGSTOP), as a
 * stalled host would. Close it (try-with-resources or {@code @AfterAll}) to stop it for good.
 */
public final class DedicatedRedis implements AutoCloseable {

    private final RedisProcess process;
    private final RedisSource source;

    DedicatedRedis(RedisProcess process, RedisSource source) {
        this.process = process;
        this.source = source;
    }

    /** {@code redis://127.0.0.1:port}; the same across stop and start. */
    public String url() {
        return RedisUrl.loopback(process.port());
    }

    public String host() {
        return process.host();
    }

    public int port() {
        return process.port();
    }

    /** An endpoint for this server with the given key prefix. */
    public RedisEndpoint endpoint(String keyPrefix) {
        return new RedisEndpoint(host(), port(), url(), keyPrefix, source);
    }

    public boolean isRunning() {
        return process.isRunning();
    }

    /** Kills the server (its data is gone: persistence is off). Does nothing if it is stopped already. */
    public void stop() {
        process.stop();
    }

    /** Starts an empty server on the same port and waits until it answers; does nothing if it runs already. */
    public void start() {
        process.start();
    }

    /** Kills the server with SIGKILL, as a crash would: no shutdown, clients see their connections reset. */
    public void kill() {
        process.kill();
    }

    /**
     * Freezes the server with SIGSTOP: its sockets stay open and the kernel still accepts connections and data, but
     * nothing is answered until {@link #thaw()}. Sentinels and cluster nodes take it for down after their timeout.
     */
    public void freeze() {
        process.signal(true);
    }

    /** Resumes a {@link #freeze() frozen} server (SIGCONT). */
    public void thaw() {
        process.signal(false);
    }

    /**
     * Cuts this replica's link to its primary and keeps it cut (it is made to authenticate with a password the
     * primary does not have), so writes from now on reach the primary only: the writes a failover loses. Freezing
     * the replica would not do: the kernel still takes the replication stream into its socket buffer, and the
     * replica reads it when resumed. {@link #restoreReplication()} undoes it.
     */
    public void cutReplication() {
        endpoint("").call("CONFIG", "SET", "masterauth", "guard-cut-replication");
        endpoint("").call("CLIENT", "KILL", "TYPE", "master");
        Await.until(Duration.ofSeconds(30), this + " to lose its link to the primary",
                () -> "down".equals(info("replication").get("master_link_status")));
    }

    /** Lets this server replicate again after {@link #cutReplication()} (does nothing to one never cut). */
    public void restoreReplication() {
        endpoint("").call("CONFIG", "SET", "masterauth", "");
    }

    /** {@code INFO <section>} as field to value, e.g. {@code role}, {@code master_repl_offset}. */
    public Map<String, String> info(String section) {
        return Info.parse((String) endpoint("").call("INFO", section));
    }

    /** The server's log so far (its last 2,000 characters), for failure messages. */
    public String logTail() {
        return process.logTail();
    }

    @Override
    public String toString() {
        return "redis-server at " + host() + ":" + port();
    }

    @Override
    public void close() {
        if (process.isRunning()) {
            try {
                thaw(); // a frozen server would take SIGTERM only once resumed
            } catch (IllegalStateException ignored) {
                // gone meanwhile: stop() has nothing to do
            }
        }
        stop();
    }
}
