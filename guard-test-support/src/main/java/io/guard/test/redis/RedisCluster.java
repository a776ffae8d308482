package io.guard.test.redis;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A real Redis Cluster of the test's own on loopback: {@code masters} masters sharing the 16,384 slots, each with
 * {@code replicasPerMaster} replicas. The harness forms it itself over the Redis protocol ({@code CLUSTER
 * ADDSLOTS}, {@code MEET}, {@code REPLICATE}), as {@code redis-cli --cluster create} would, so it needs nothing but
 * the {@code redis-server} of {@link RedisBinary#locate()}. {@link #start} returns once every node reports
 * {@code cluster_state:ok} and every master has its replicas connected.
 *
 * <p>Faults for a master of the test's choice ({@link #masterOf(String)} finds the one holding a key): a manual
 * failover ({@link #failover}: {@code CLUSTER FAILOVER} on its replica, which takes over without losing a write),
 * or a crash ({@link DedicatedRedis#kill()}, then {@link #awaitPromotionAfter}: the replica is elected once the
 * masters agree the node failed, after the node timeout). {@link #close()} stops every node; a shutdown hook does if
 * the JVM ends first.
 */
public final class RedisCluster implements AutoCloseable {

    /** Bound on every wait of the harness for the cluster (creation, agreement, promotion). */
    public static final Duration WAIT = Duration.ofSeconds(60);
    /** Longer than Redis's own 5 s for a manual failover, after which it gives the attempt up. */
    private static final Duration MANUAL_FAILOVER_RETRY = Duration.ofSeconds(7);
    private static final Logger log = LoggerFactory.getLogger(RedisCluster.class);

    private final List<DedicatedRedis> nodes = new ArrayList<>();
    private final Duration nodeTimeout;
    private final OwnedProcesses owned = new OwnedProcesses("cluster");

    private RedisCluster(Duration nodeTimeout) {
        this.nodeTimeout = nodeTimeout;
    }

    /**
     * Starts and joins the nodes: the first {@code masters} started are the masters, the others their replicas in turn.
     *
     * @param nodeTimeout how long a master may be silent before it is taken for failed ({@code cluster-node-timeout})
     * @throws IllegalStateException if no binary runs here or the cluster does not come together; nothing is left
     *                               running then
     */
    public static RedisCluster start(int masters, int replicasPerMaster, Duration nodeTimeout) {
        return start(RedisBinary.locate(), masters, replicasPerMaster, nodeTimeout);
    }

    /** {@link #start(int, int, Duration)} with every node run from {@code binary}. */
    static RedisCluster start(RedisBinary binary, int masters, int replicasPerMaster, Duration nodeTimeout) {
        if (masters < 1 || replicasPerMaster < 0) {
            throw new IllegalArgumentException("a cluster needs masters >= 1 and replicasPerMaster >= 0, not "
                    + masters + " and " + replicasPerMaster);
        }
        RedisCluster cluster = new RedisCluster(nodeTimeout);
        try {
            cluster.create(binary, masters, replicasPerMaster);
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private void create(RedisBinary binary, int masters, int replicasPerMaster) {
        int count = masters * (1 + replicasPerMaster);
        List<String> options = List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", Long.toString(nodeTimeout.toMillis()),
                "--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0");
        for (int i = 0; i < count; i++) {
            DedicatedRedis node = new DedicatedRedis(RedisProcess.startOnFreePort(binary, options, null, true),
                    binary.source());
            nodes.add(node);
            owned.add(node.toString(), node::close);
        }
        ClusterFormation.form(nodes, masters, WAIT);
        Await.until(WAIT, "every node to report cluster_state:ok", () -> nodes.stream()
                .allMatch(node -> ((String) node.endpoint("").call("CLUSTER", "INFO")).contains("cluster_state:ok")));
        Await.until(WAIT, "every master to have " + replicasPerMaster + " replicas in sync", () -> masters().size()
                == masters && masters().stream().allMatch(master -> replicasOf(master).size() == replicasPerMaster
                && replicasOf(master).stream().allMatch(replica -> linkUp(replica))));
        log.info("Redis Cluster for tests: {} masters, {} replicas each, nodes {}, run from {} ({})", masters,
                replicasPerMaster, nodes.stream().map(DedicatedRedis::port).toList(), binary.path(), binary.version());
    }

    /** Every node, masters and replicas, in the order started. */
    public List<DedicatedRedis> nodes() {
        return List.copyOf(nodes);
    }

    /** {@code redis://127.0.0.1:port} of every node, what a client's cluster configuration lists. */
    public List<String> urls() {
        return nodes.stream().map(DedicatedRedis::url).toList();
    }

    /** The nodes that are masters now and not failed, as a running node sees the cluster. */
    public List<DedicatedRedis> masters() {
        return view().stream().filter(line -> line.flags().contains("master") && !line.failed())
                .map(line -> node(line.port())).toList();
    }

    /** The master that holds {@code key}'s slot now. */
    public DedicatedRedis masterOf(String key) {
        long slot = (Long) running().endpoint("").call("CLUSTER", "KEYSLOT", key);
        for (Object shard : (List<?>) running().endpoint("").call("CLUSTER", "SLOTS")) {
            List<?> range = (List<?>) shard;
            if ((Long) range.get(0) <= slot && slot <= (Long) range.get(1)) {
                return node(Math.toIntExact((Long) ((List<?>) range.get(2)).get(1)));
            }
        }
        throw new IllegalStateException("no master holds slot " + slot);
    }

    /** The replicas of {@code master} now. */
    public List<DedicatedRedis> replicasOf(DedicatedRedis master) {
        String id = view().stream().filter(line -> line.port() == master.port()).findFirst()
                .orElseThrow(() -> new IllegalStateException(master + " is no node of the cluster")).id();
        return view().stream().filter(line -> line.masterId().equals(id) && !line.failed())
                .map(line -> node(line.port())).toList();
    }

    /**
     * A manual failover of {@code master}: {@code CLUSTER FAILOVER} on its replica, which waits until it has every
     * write of the master, then takes its slots. Returns the new master once every running node agrees, and agrees
     * that the old master replicates it.
     */
    public DedicatedRedis failover(DedicatedRedis master) {
        DedicatedRedis replica = replicasOf(master).get(0);
        replica.endpoint("").call("CLUSTER", "FAILOVER");
        // Redis gives a manual failover 5 s (CLUSTER_MF_TIMEOUT) to catch up with the master and then drops it
        // without a word; on a busy machine that happens, so ask again until the replica has taken over.
        long[] asked = {System.nanoTime()};
        Await.until(WAIT, replica + " to take over from " + master, () -> {
            if ("master".equals(replica.info("replication").get("role"))) {
                return true;
            }
            if (System.nanoTime() - asked[0] > MANUAL_FAILOVER_RETRY.toNanos()) {
                replica.endpoint("").call("CLUSTER", "FAILOVER");
                asked[0] = System.nanoTime();
            }
            return false;
        });
        awaitMaster(replica);
        Await.until(WAIT, master + " to replicate " + replica + " for every node", () -> nodes.stream()
                .filter(DedicatedRedis::isRunning).allMatch(viewer -> {
                    List<NodeLine> lines = NodeLine.of(viewer);
                    String id = lines.stream().filter(line -> line.port() == replica.port()).findFirst()
                            .map(NodeLine::id).orElse("?");
                    return lines.stream().anyMatch(line -> line.port() == master.port() && line.masterId().equals(id));
                }) && linkUp(master));
        return replica;
    }

    /**
     * After {@code master} was killed or frozen: waits until one of its replicas is master for every running node
     * (the masters must first agree that it failed, after the node timeout).
     */
    public DedicatedRedis awaitPromotionAfter(DedicatedRedis master, List<DedicatedRedis> replicas) {
        Await.until(WAIT, "a replica of " + master + " to be elected", () -> replicas.stream()
                .anyMatch(replica -> "master".equals(replica.info("replication").get("role"))));
        DedicatedRedis promoted = replicas.stream()
                .filter(replica -> "master".equals(replica.info("replication").get("role"))).findFirst().orElseThrow();
        awaitMaster(promoted);
        return promoted;
    }

    /**
     * Starts a killed node again with its cluster identity ({@code nodes.conf} survives in its directory, the data
     * does not): the cluster takes it back as a replica of the master that replaced it. Returns once it is in sync.
     */
    public void rejoin(DedicatedRedis node) {
        if (!node.isRunning()) {
            node.start();
        }
        Await.until(WAIT, node + " to rejoin as a replica in sync", () -> {
            Map<String, String> info = node.info("replication");
            return "slave".equals(info.get("role")) && "up".equals(info.get("master_link_status"));
        });
        Await.until(WAIT, "every node to report cluster_state:ok", () -> nodes.stream().filter(DedicatedRedis::isRunning)
                .allMatch(n -> ((String) n.endpoint("").call("CLUSTER", "INFO")).contains("cluster_state:ok")));
    }

    private void awaitMaster(DedicatedRedis promoted) {
        Await.until(WAIT, promoted + " to be master for every node", () -> nodes.stream()
                .filter(DedicatedRedis::isRunning).allMatch(node -> agreesIsMaster(node, promoted)));
    }

    /** Keys held by every master together. */
    public long keyCount() {
        return masters().stream().mapToLong(master -> (Long) master.endpoint("").call("DBSIZE")).sum();
    }

    private static boolean agreesIsMaster(DedicatedRedis viewer, DedicatedRedis promoted) {
        return NodeLine.of(viewer).stream()
                .anyMatch(line -> line.port() == promoted.port() && line.flags().contains("master"));
    }

    private static boolean linkUp(DedicatedRedis replica) {
        return "up".equals(replica.info("replication").get("master_link_status"));
    }

    private List<NodeLine> view() {
        return NodeLine.of(running());
    }

    private DedicatedRedis running() {
        return nodes.stream().filter(DedicatedRedis::isRunning).findFirst()
                .orElseThrow(() -> new IllegalStateException("no cluster node is running"));
    }

    private DedicatedRedis node(int port) {
        return nodes.stream().filter(node -> node.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("port " + port + " is no node of this cluster"));
    }

    @Override
    public void close() {
        owned.close();
    }
}
