package io.guard.benchmarks.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@link ItemsApp} in a JVM of its own, started with the given class path, JVM flags and properties; its CPU
 * time read from {@code /proc/<pid>/stat} (user + system, every thread: Tomcat, the Redis client's I/O, GC, JIT).
 */
final class AppProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** USER_HZ: the unit of utime and stime; 100 on every Linux this runs on. */
    private static final long TICKS_PER_SECOND = 100;

    private final Process process;
    private final int port;
    private final Path log;

    /** Ends the application if this program is stopped while it runs. */
    private final Thread stopOnExit;

    private AppProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.stopOnExit = new Thread(process::destroy);
        Runtime.getRuntime().addShutdownHook(stopOnExit);
    }

    static AppProcess start(String classPath, List<String> jvmFlags, List<String> properties, int port)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", classPath, ItemsApp.class.getName(), "--server.port=" + port));
        properties.forEach(p -> command.add("--" + p));
        Path log = Files.createTempFile("items-app", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        AppProcess app = new AppProcess(process, port, log);
        app.awaitReady(Duration.ofSeconds(180));
        return app;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** GET /items/{id}?user=: the status, or -1 when nothing answered. */
    int get(long id, String user) throws InterruptedException {
        return status("/items/" + id + "?user=" + user);
    }

    /** GET /check/{id}?user=, limited to 5 per 60 s. */
    int check(long id, String user) throws InterruptedException {
        return status("/check/" + id + "?user=" + user);
    }

    private int status(String path) throws InterruptedException {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException notYet) {
            return -1;
        }
    }

    /** CPU time of the whole process so far, in microseconds. */
    long cpuMicros() throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // after "pid (comm) ": state is field 3, so utime (14) and stime (15) are at 11 and 12
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 1_000_000 / TICKS_PER_SECOND;
    }

    private void awaitReady(Duration patience) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the application ended:\n" + Files.readString(log));
            }
            if (get(1, "ready") > 0) {
                return;
            }
            Thread.sleep(200);
        }
        close();
        throw new IllegalStateException("the application did not answer within " + patience + ":\n"
                + Files.readString(log));
    }

    @Override
    public void close() throws InterruptedException {
        Runtime.getRuntime().removeShutdownHook(stopOnExit);
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // a temporary file
        }
    }
}
