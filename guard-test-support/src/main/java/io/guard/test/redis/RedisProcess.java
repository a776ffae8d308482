package io.guard.test.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@code redis-server} process (a sentinel too, with {@code --sentinel}) on a loopback port, with persistence
 * off, that can be stopped and started again on the same port, killed outright and frozen. Its output goes to a log
 * file whose tail is shown when the server fails to come up.
 */
final class RedisProcess {

    private static final long START_TIMEOUT_MILLIS = 15_000;
    private static final String LOOPBACK = "127.0.0.1";
    private static final int CLUSTER_BUS_OFFSET = 10_000;
    private static final int MAX_PORT = 65_535;

    private final RedisBinary binary;
    private final int port;
    private final List<String> extraArguments;
    private final Path directory;
    /** A configuration file given before the options, or null; a sentinel needs one it may rewrite. */
    private final String configuration;
    private Process process;

    RedisProcess(RedisBinary binary, int port, List<String> extraArguments, String configuration) {
        this.binary = binary;
        this.port = port;
        this.extraArguments = List.copyOf(extraArguments);
        this.configuration = configuration;
        try {
            this.directory = Files.createTempDirectory("guard-redis-" + port + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a working directory for redis-server", e);
        }
    }

    /** Starts a server on a free port, trying another port if a different process took the first one meanwhile. */
    static RedisProcess startOnFreePort(RedisBinary binary, List<String> extraArguments) {
        return startOnFreePort(binary, extraArguments, null);
    }

    /** Likewise with a configuration file of this text before the options (a sentinel needs one). */
    static RedisProcess startOnFreePort(RedisBinary binary, List<String> extraArguments, String configuration) {
        return startOnFreePort(binary, extraArguments, configuration, false);
    }

    /**
     * Likewise; with {@code clusterBus}, the port is one a cluster node can take: its bus port, 10,000 higher, must
     * exist and be free too (a Redis older than 7 has no {@code cluster-port} option to choose the bus port).
     */
    static RedisProcess startOnFreePort(RedisBinary binary, List<String> extraArguments, String configuration,
                                        boolean clusterBus) {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = clusterBus ? freeClusterPort() : freePort();
            RedisProcess candidate = new RedisProcess(binary, port, extraArguments, configuration);
            try {
                candidate.start();
                return candidate;
            } catch (IllegalStateException e) {
                last = e;
            }
        }
        throw last;
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    /**
     * A free loopback port whose cluster bus port (port + 10,000) is free as well. The kernel's ephemeral ports reach
     * above 55,535, where the bus port would not exist and the node would refuse to start, so those are not taken.
     */
    static int freeClusterPort() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = freePort();
            if (port + CLUSTER_BUS_OFFSET <= MAX_PORT && isFree(port + CLUSTER_BUS_OFFSET)) {
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port p with p + " + CLUSTER_BUS_OFFSET
                + " free as well, for a cluster node, in 200 attempts");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(LOOPBACK))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    int port() {
        return port;
    }

    String host() {
        return LOOPBACK;
    }

    synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    synchronized void start() {
        if (isRunning()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(binary.path().toString()));
        if (configuration != null) {
            Path file = directory.resolve("redis.conf");
            try {
                Files.writeString(file, configuration, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + file, e);
            }
            command.add(file.toString());
        }
        command.addAll(List.of("--port", Integer.toString(port), "--bind", LOOPBACK, "--save", "", "--appendonly", "no",
                "--daemonize", "no", "--dir", directory.toString()));
        command.addAll(extraArguments);
        Path log = directory.resolve("redis.log");
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + binary.path() + ": " + e, e);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " exited with "
                        + process.exitValue() + ": " + tail(log));
            }
            if (Resp.ping(LOOPBACK, port)) {
                return;
            }
            pause();
        }
        stop();
        throw new IllegalStateException("redis-server on port " + port + " did not answer PING within "
                + START_TIMEOUT_MILLIS + " ms: " + tail(log));
    }

    synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Kills the process with SIGKILL, as a crash would, and waits until it is gone. */
    synchronized void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly(); // SIGKILL on Unix
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-server on port " + port + " survived SIGKILL for 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing redis-server", e);
        }
        process = null;
    }

    /** Sends {@code SIGSTOP} ({@code freeze}) or {@code SIGCONT}: a stopped server keeps its sockets but answers nothing. */
    synchronized void signal(boolean freeze) {
        if (process == null) {
            throw new IllegalStateException("redis-server on port " + port + " is not running");
        }
        String name = freeze ? "-STOP" : "-CONT";
        try {
            Process kill = new ProcessBuilder("kill", name, Long.toString(process.pid())).redirectErrorStream(true)
                    .start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill " + name + " " + process.pid() + " failed: " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill " + name + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling redis-server", e);
        }
    }

    /** The server's log so far (its last 2,000 characters), for failure messages. */
    String logTail() {
        return tail(directory.resolve("redis.log"));
    }

    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for redis-server", e);
        }
    }

    private static String tail(Path log) {
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            return text.length() > 2000 ? text.substring(text.length() - 2000) : text;
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
