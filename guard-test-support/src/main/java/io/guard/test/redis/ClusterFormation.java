package io.guard.test.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Joins fresh cluster-enabled nodes into one Redis Cluster over the Redis protocol, the steps
 * {@code redis-cli --cluster create} takes: a distinct config epoch per node, the slots split evenly among the
 * masters ({@code CLUSTER ADDSLOTS}), every node introduced to the first ({@code CLUSTER MEET}), and, once all know
 * each other, each replica attached to its master ({@code CLUSTER REPLICATE}). Returns when the replicas are
 * attached; the caller waits for {@code cluster_state:ok}.
 */
final class ClusterFormation {

    static final int SLOTS = 16_384;

    private ClusterFormation() {
    }

    /**
     * @param nodes   fresh nodes, each knowing only itself; the first {@code masters} become the masters, the others
     *                replicas of master 0, 1, ..., 0, 1, ... in turn
     * @param timeout bound on the wait for the nodes to know each other
     */
    static void form(List<DedicatedRedis> nodes, int masters, Duration timeout) {
        for (int i = 0; i < nodes.size(); i++) {
            // Distinct epochs up front: otherwise the masters start equal and settle the collision one by one.
            call(nodes.get(i), "CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(i + 1));
        }
        for (int i = 0; i < masters; i++) {
            call(nodes.get(i), addSlots(i * SLOTS / masters, (i + 1) * SLOTS / masters - 1));
        }
        DedicatedRedis first = nodes.get(0);
        for (DedicatedRedis node : nodes.subList(1, nodes.size())) {
            call(first, "CLUSTER", "MEET", node.host(), Integer.toString(node.port()));
        }
        Await.until(timeout, "every node to know all " + nodes.size() + " nodes", () -> nodes.stream()
                .allMatch(node -> NodeLine.of(node).stream().filter(line -> !line.inHandshake()).count()
                        == nodes.size()));
        for (int i = masters; i < nodes.size(); i++) {
            String masterId = (String) call(nodes.get((i - masters) % masters), "CLUSTER", "MYID");
            call(nodes.get(i), "CLUSTER", "REPLICATE", masterId);
        }
    }

    /** {@code CLUSTER ADDSLOTS first ... last}: one command for the range (ADDSLOTSRANGE needs Redis 7). */
    private static String[] addSlots(int first, int last) {
        List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
        for (int slot = first; slot <= last; slot++) {
            command.add(Integer.toString(slot));
        }
        return command.toArray(String[]::new);
    }

    private static Object call(DedicatedRedis node, String... command) {
        try {
            return node.endpoint("").call(command);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("forming the cluster: " + node + " refused "
                    + String.join(" ", command.length > 4 ? List.of(command).subList(0, 4) : List.of(command))
                    + (command.length > 4 ? " ..." : "") + ": " + e.getMessage() + "; its log: " + node.logTail(), e);
        }
    }
}
