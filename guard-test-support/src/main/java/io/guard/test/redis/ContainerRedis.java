package io.guard.test.redis;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A {@code redis:7-alpine} container. Testcontainers can take many seconds to conclude that there is no Docker
 * engine, so the harness first looks for the cheap signs of one (a socket, {@code DOCKER_HOST}, a Testcontainers
 * configuration) and only then asks Testcontainers.
 */
final class ContainerRedis {

    private static final DockerImageName IMAGE = DockerImageName.parse("redis:7-alpine");
    private static final int REDIS_PORT = 6379;

    private ContainerRedis() {
    }

    static boolean dockerLikely() {
        if (System.getenv("DOCKER_HOST") != null) {
            return true;
        }
        String home = System.getProperty("user.home");
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        return Files.exists(Path.of("/var/run/docker.sock"))
                || Files.exists(Path.of(home, ".docker", "run", "docker.sock"))
                || Files.exists(Path.of(home, ".testcontainers.properties"))
                || (runtime != null && Files.exists(Path.of(runtime, "docker.sock")));
    }

    /** A started container, or empty when no engine answers or the container cannot start. */
    static Optional<GenericContainer<?>> start() {
        if (!dockerLikely() || !DockerClientFactory.instance().isDockerAvailable()) {
            return Optional.empty();
        }
        GenericContainer<?> container = new GenericContainer<>(IMAGE).withExposedPorts(REDIS_PORT)
                .withCommand("redis-server", "--save", "", "--appendonly", "no");
        container.start();
        return Optional.of(container);
    }

    static int mappedPort(GenericContainer<?> container) {
        return container.getMappedPort(REDIS_PORT);
    }
}
