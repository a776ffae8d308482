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
import java.util.stream.Stream;

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
        return cpuMicros(Path.of("/proc", Long.toString(process.pid()), "stat"));
    }

    /**
     * What the process's threads have used so far, read thread by thread ({@code /proc/<pid>/task/<tid>/}): CPU time
     * of the JIT compiler threads apart from the others' (a JIT still compiling is a cost of warming up, not of a
     * request; it settles at different times in different variants), and context switches (voluntary and not).
     * Threads that ended since the last reading are missing from this one, so compare readings of a steady process.
     */
    Threads threads() throws IOException {
        long compiler = 0;
        long other = 0;
        long switches = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(process.pid()), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    long cpu = cpuMicros(task.resolve("stat"));
                    if (Files.readString(task.resolve("comm")).contains("CompilerThre")) {
                        compiler += cpu;
                    } else {
                        other += cpu;
                    }
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.contains("ctxt_switches:")) {
                            switches += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                } catch (IOException | RuntimeException ended) {
                    // the thread ended while being read
                }
            }
        }
        return new Threads(other, compiler, switches);
    }

    /** @param cpuMicros CPU time of every thread but the JIT compiler's; {@code compilerMicros}: theirs */
    record Threads(long cpuMicros, long compilerMicros, long contextSwitches) {
        Threads minus(Threads before) {
            return new Threads(cpuMicros - before.cpuMicros, compilerMicros - before.compilerMicros,
                    contextSwitches - before.contextSwitches);
        }
    }

    private static long cpuMicros(Path stat) throws IOException {
        String line = Files.readString(stat);
        String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
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
