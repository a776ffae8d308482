package io.guard.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sample started in a JVM of its own, as a user starts it (its main class on the test's class path, which holds
 * the same classes as the jar; this also works for the Boot 3 build, which makes no jar), on a port the OS picks,
 * its output in a file.
 */
final class SampleProcess implements AutoCloseable {

    private static final Pattern PORT = Pattern.compile("started on port (\\d+)");

    private final Process process;
    private final Path log;

    private SampleProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts the sample with {@code arguments} (Spring Boot's {@code --name=value}). */
    static SampleProcess start(Path log, String... arguments) {
        return start(log, List.of(), arguments);
    }

    /** Starts the sample with {@code jvmOptions} ({@code -Dname=value}) and {@code arguments}. */
    static SampleProcess start(Path log, List<String> jvmOptions, String... arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), OrderServiceApplication.class.getName()));
        command.addAll(List.of(arguments));
        try {
            Files.createDirectories(log.getParent());
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            return new SampleProcess(process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + command, e);
        }
    }

    /** The HTTP port, once the log says the server listens; fails when the process dies or {@code within} passes. */
    int awaitPort(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            Matcher port = PORT.matcher(output());
            if (port.find()) {
                return Integer.parseInt(port.group(1));
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("the sample exited with " + process.exitValue() + "; its log: " + log);
            }
            pause(100);
        }
        throw new IllegalStateException("the sample did not listen within " + within + "; its log: " + log);
    }

    /** Everything the process has written so far. */
    String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path log() {
        return log;
    }

    static void pause(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Stops the process (SIGTERM, then SIGKILL after 20 s). */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
