package io.guard.test.redis;

import redis.embedded.core.ExecutableProvider;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} executable this machine can run: the one on {@code PATH} if any, else the binary shipped in
 * {@code com.github.codemonstur:embedded-redis}. Tests that need a server of their own (fault injection, a Redis
 * Cluster of several nodes) start it from here, and so do sentinels: a sentinel is this binary with
 * {@code --sentinel}, so no {@code redis-sentinel} or {@code redis-cli} is needed.
 *
 * @param path    the executable
 * @param source  {@link RedisSource#PATH_BINARY} or {@link RedisSource#EMBEDDED_BINARY}
 * @param version what {@code --version} printed, for the log
 */
public record RedisBinary(Path path, RedisSource source, String version) {

    private static final String NAME = "redis-server";

    /**
     * Finds a runnable binary.
     *
     * @throws IllegalStateException if neither {@code PATH} nor the embedded-redis artifact yields one that runs
     */
    public static RedisBinary locate() {
        Optional<RedisBinary> onPath = onPath();
        if (onPath.isPresent()) {
            return onPath.get();
        }
        return embedded();
    }

    /** The {@code redis-server} on {@code PATH}, if there is one that runs. */
    public static Optional<RedisBinary> onPath() {
        String pathVariable = System.getenv("PATH");
        if (pathVariable == null) {
            return Optional.empty();
        }
        for (String directory : pathVariable.split(File.pathSeparator)) {
            if (directory.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(directory, NAME);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                Optional<String> version = version(candidate);
                if (version.isPresent()) {
                    return Optional.of(new RedisBinary(candidate, RedisSource.PATH_BINARY, version.get()));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The binary inside the embedded-redis artifact, extracted to a temporary file.
     *
     * @throws IllegalStateException if the artifact has no binary for this OS and architecture, or it does not run
     */
    public static RedisBinary embedded() {
        Path path;
        try {
            path = ExecutableProvider.newJarResourceProvider().get().toPath();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("embedded-redis has no redis-server for " + System.getProperty("os.name")
                    + "/" + System.getProperty("os.arch") + ": " + e, e);
        }
        String version = version(path).orElseThrow(() -> new IllegalStateException(
                "the redis-server shipped in embedded-redis (" + path + ") does not run on this machine"));
        return new RedisBinary(path, RedisSource.EMBEDDED_BINARY, version);
    }

    private static Optional<String> version(Path binary) {
        try {
            Process process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Optional.empty();
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return process.exitValue() == 0 ? Optional.of(output) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
