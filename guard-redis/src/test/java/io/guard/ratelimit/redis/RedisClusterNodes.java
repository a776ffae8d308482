package io.guard.ratelimit.redis;

import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisBinary;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real 3-master Redis Cluster on loopback, built by {@code redis-cli --cluster create}. Tests are skipped, with
 * the reason printed, on a machine without {@code redis-server} and {@code redis-cli} on disk.
 */
final class RedisClusterNodes implements AutoCloseable {

    private final List<DedicatedRedis> nodes = new ArrayList<>();

    static RedisClusterNodes start() throws Exception {
        RedisBinary server = RedisServers.binary();
        Path cli = server.path().resolveSibling("redis-cli");
        String reason = "Redis Cluster test skipped: no redis-cli next to " + server.path() + " (" + server.source()
                + ")";
        if (!Files.isExecutable(cli)) {
            System.out.println(reason);
        }
        assumeTrue(Files.isExecutable(cli), reason);
        RedisClusterNodes cluster = new RedisClusterNodes();
        try {
            cluster.create(cli);
            return cluster;
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    private void create(Path cli) throws Exception {
        for (int i = 0; i < 3; i++) {
            nodes.add(RedisServers.startDedicated("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "5000"));
        }
        List<String> create = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
        nodes.forEach(node -> create.add(node.host() + ":" + node.port()));
        create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        Process process = new ProcessBuilder(create).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("redis-cli --cluster create: %s", output).isZero();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (DedicatedRedis node : nodes) {
            while (!clusterInfo(node).contains("cluster_state:ok") && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(clusterInfo(node)).as("CLUSTER INFO on port %d", node.port()).contains("cluster_state:ok");
        }
    }

    List<DedicatedRedis> nodes() {
        return nodes;
    }

    List<String> urls() {
        return nodes.stream().map(DedicatedRedis::url).toList();
    }

    RedisEndpoint endpoint(int node) {
        return nodes.get(node).endpoint("guard:");
    }

    /** Keys held by all masters together. */
    long keyCount() {
        long count = 0;
        for (int i = 0; i < nodes.size(); i++) {
            count += (Long) endpoint(i).call("DBSIZE");
        }
        return count;
    }

    private static String clusterInfo(DedicatedRedis node) {
        return (String) node.endpoint("guard:").call("CLUSTER", "INFO");
    }

    @Override
    public void close() {
        nodes.forEach(DedicatedRedis::close);
    }
}
