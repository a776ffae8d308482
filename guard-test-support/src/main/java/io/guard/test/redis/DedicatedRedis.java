package io.guard.test.redis;

/**
 * A Redis server owned by one test, for fault injection: {@link #stop()} makes it unreachable, {@link #start()}
 * brings an empty server back on the same port, so clients configured with {@link #url()} reconnect by themselves.
 * Close it (try-with-resources or {@code @AfterAll}) to stop it for good.
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

    /**
     * Stops the server process where it stands ({@code SIGSTOP}): connections stay open, nothing is answered, as
     * with a server hung in a kernel stall or a stopped container. {@link #thaw()} lets it go on.
     */
    public void freeze() {
        process.signal("STOP");
    }

    /** Lets a {@link #freeze() frozen} server go on ({@code SIGCONT}). */
    public void thaw() {
        process.signal("CONT");
    }

    /**
     * Kills the server at once ({@code SIGKILL}): its connections are reset rather than closed by a shutdown, and
     * new ones are refused. {@link #start()} brings an empty server back.
     */
    public void kill() {
        process.signal("KILL");
        process.stop();
    }

    /** Starts an empty server on the same port and waits until it answers; does nothing if it runs already. */
    public void start() {
        process.start();
    }

    @Override
    public void close() {
        stop();
    }
}
