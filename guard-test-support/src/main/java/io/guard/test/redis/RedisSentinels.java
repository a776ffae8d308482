package io.guard.test.redis;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Redis Sentinel deployment of the test's own on loopback: one primary, one replica and three sentinels (quorum 2)
 * watching them under the name {@value #MASTER_NAME}, with timeouts short enough for tests ({@link #DOWN_AFTER},
 * {@link #FAILOVER_TIMEOUT}). {@link #start()} returns once every sentinel knows the replica and the two other
 * sentinels, so a failover can be started at once.
 *
 * <p>Faults: {@link #failover()} ({@code SENTINEL FAILOVER}), or kill or freeze {@link #primary()} through its
 * {@link DedicatedRedis} handle and {@link #awaitPrimaryOtherThan wait} for the sentinels to promote the replica;
 * {@link #rejoinAsReplica} brings a former primary back. {@link #close()} stops every process, and a shutdown hook
 * does if the JVM ends first, so a failed test leaves nothing running.
 *
 * <p>The data nodes run with persistence off and diskless replication without delay, so a replica resynchronizes
 * in milliseconds. Every process is the {@code redis-server} of {@link RedisBinary#locate()}, the sentinels with
 * {@code --sentinel}: the binary shipped in embedded-redis will do, no {@code redis-sentinel} is needed.
 */
public final class RedisSentinels implements AutoCloseable {

    /** The name the sentinels monitor the primary under: what a client's sentinel configuration asks for. */
    public static final String MASTER_NAME = "guard";
    /**
     * How long a node must be silent before a sentinel takes it for down: short for tests, long enough that a
     * machine busy with other builds (load average 20-30 seen) does not fail a healthy primary over.
     */
    public static final Duration DOWN_AFTER = Duration.ofMillis(2_000);
    /** How long a failover may take before the sentinels try again. */
    public static final Duration FAILOVER_TIMEOUT = Duration.ofMillis(3_000);
    /**
     * Bound on every wait of the harness for the deployment (agreement, promotion, resync). Sentinels look at
     * replicas every 10 s, so seeing a rejoined replica healthy takes up to 20 s on an idle machine.
     */
    public static final Duration WAIT = Duration.ofSeconds(60);

    private static final Logger log = LoggerFactory.getLogger(RedisSentinels.class);
    private static final List<String> DATA_NODE_OPTIONS = List.of("--repl-diskless-sync", "yes",
            "--repl-diskless-sync-delay", "0", "--repl-timeout", "5");

    private final List<DedicatedRedis> nodes = new ArrayList<>();
    private final List<RedisProcess> sentinels = new ArrayList<>();
    private final OwnedProcesses owned = new OwnedProcesses("sentinels");

    private RedisSentinels() {
    }

    /**
     * Starts the five processes and waits (at most {@link #WAIT}) until the sentinels agree.
     *
     * @throws IllegalStateException if a binary is missing or the deployment does not come together; nothing is
     *                               left running then
     */
    public static RedisSentinels start() {
        return start(RedisBinary.locate());
    }

    /** {@link #start()} with every process (data nodes and sentinels) run from {@code binary}. */
    static RedisSentinels start(RedisBinary binary) {
        RedisSentinels deployment = new RedisSentinels();
        try {
            deployment.build(binary);
            return deployment;
        } catch (RuntimeException | Error e) {
            deployment.close();
            throw e;
        }
    }

    private void build(RedisBinary binary) {
        DedicatedRedis primary = RedisServers.startDedicated(binary, DATA_NODE_OPTIONS);
        nodes.add(primary);
        owned.add(primary.toString(), primary::close);
        List<String> replicaOptions = new ArrayList<>(DATA_NODE_OPTIONS);
        replicaOptions.addAll(List.of("--replicaof", primary.host(), Integer.toString(primary.port())));
        DedicatedRedis replica = RedisServers.startDedicated(binary, replicaOptions);
        nodes.add(replica);
        owned.add(replica.toString(), replica::close);
        awaitInSync(replica, primary);
        String configuration = String.join("\n",
                "sentinel resolve-hostnames no",
                "sentinel monitor " + MASTER_NAME + " " + primary.host() + " " + primary.port() + " 2",
                "sentinel down-after-milliseconds " + MASTER_NAME + " " + DOWN_AFTER.toMillis(),
                "sentinel failover-timeout " + MASTER_NAME + " " + FAILOVER_TIMEOUT.toMillis(),
                "sentinel parallel-syncs " + MASTER_NAME + " 1", "");
        for (int i = 0; i < 3; i++) {
            RedisProcess started = RedisProcess.startOnFreePort(binary, List.of("--sentinel"), configuration);
            sentinels.add(started);
            owned.add("sentinel " + started.port(), started::stop);
        }
        awaitHealthy();
        log.info("Redis Sentinel for tests: primary {}, replica {}, sentinels {}, all run from {} ({})", primary.port(),
                replica.port(), sentinelAddresses(), binary.path(), binary.version());
    }

    /**
     * Waits until every sentinel sees the two other sentinels, the primary up and the other node as a replica that is
     * up with its link to the primary up: only then can the sentinels promote it. {@link #start()} and
     * {@link #rejoinAsReplica} call this.
     */
    public void awaitHealthy() {
        for (RedisProcess s : sentinels) {
            Await.until(WAIT, "sentinel " + s.port() + " to see the primary, a healthy replica and 2 other sentinels",
                    () -> {
                        Map<String, String> master = sentinelMaster(s);
                        if (!"2".equals(master.get("num-other-sentinels")) || !"master".equals(master.get("flags"))) {
                            return false;
                        }
                        int replicaPort = other(node(Integer.parseInt(master.get("port")))).port();
                        return replicas(s).stream().anyMatch(r -> "slave".equals(r.get("flags"))
                                && Integer.toString(replicaPort).equals(r.get("port"))
                                && "ok".equals(r.get("master-link-status")));
                    });
        }
    }

    /** {@code 127.0.0.1:port} of each sentinel, what a client's sentinel configuration lists. */
    public List<String> sentinelAddresses() {
        return sentinels.stream().map(s -> s.host() + ":" + s.port()).toList();
    }

    /** Both data nodes, the first started as primary; which is primary now, see {@link #primary()}. */
    public List<DedicatedRedis> nodes() {
        return List.copyOf(nodes);
    }

    /** The node the first sentinel that answers names as primary. */
    public DedicatedRedis primary() {
        RuntimeException last = null;
        for (RedisProcess s : sentinels) {
            try {
                return node(primaryPort(s));
            } catch (RuntimeException e) {
                last = e;
            }
        }
        throw new IllegalStateException("no sentinel names a primary", last);
    }

    /** The data node that is not {@code node}. */
    public DedicatedRedis other(DedicatedRedis node) {
        return nodes.stream().filter(n -> n != node).findFirst().orElseThrow();
    }

    /**
     * Asks a sentinel for a failover ({@code SENTINEL FAILOVER}, no agreement needed) and waits until the other
     * node is primary for every sentinel and says so itself.
     *
     * @return the new primary
     */
    public DedicatedRedis failover() {
        DedicatedRedis old = primary();
        Resp.call(sentinels.get(0).host(), sentinels.get(0).port(), null, "SENTINEL", "FAILOVER", MASTER_NAME);
        return awaitPrimaryOtherThan(old, WAIT);
    }

    /**
     * Waits until every running sentinel names another node than {@code old} as primary and that node answers with
     * {@code role:master}.
     *
     * @throws IllegalStateException after {@code timeout}, with the sentinels' logs' tails
     */
    public DedicatedRedis awaitPrimaryOtherThan(DedicatedRedis old, Duration timeout) {
        DedicatedRedis next = other(old);
        try {
            Await.until(timeout, "the sentinels to promote " + next, () -> sentinels.stream()
                    .allMatch(s -> primaryPort(s) == next.port())
                    && "master".equals(next.info("replication").get("role")));
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "; sentinel log: " + sentinels.get(0).logTail(), e);
        }
        return next;
    }

    /**
     * Brings {@code node} (a former primary: killed, or frozen and demoted meanwhile) back as a replica of
     * {@code primary}: started again if it is not running (empty, as after a crash without persistence), told to
     * replicate at once rather than after the sentinels' conversion delay, and awaited until in sync.
     */
    public void rejoinAsReplica(DedicatedRedis node, DedicatedRedis primary) {
        if (!node.isRunning()) {
            node.start();
        }
        node.endpoint("").call("REPLICAOF", primary.host(), Integer.toString(primary.port()));
        awaitInSync(node, primary);
        awaitHealthy();
    }

    /**
     * Waits until {@code replica} replicates {@code primary}, its link up and its offset at the primary's, so a write
     * made before this call is on both.
     */
    public static void awaitInSync(DedicatedRedis replica, DedicatedRedis primary) {
        Await.until(WAIT, replica + " to replicate " + primary + " in sync", () -> {
            Map<String, String> info = replica.info("replication");
            return "slave".equals(info.get("role")) && Objects.equals(info.get("master_port"),
                    Integer.toString(primary.port())) && "up".equals(info.get("master_link_status"))
                    && offset(replica) >= offset(primary);
        });
    }

    /** {@code master_repl_offset} of a node: the bytes of writes it has (as primary) or has received (as replica). */
    public static long offset(DedicatedRedis node) {
        return Long.parseLong(node.info("replication").get("master_repl_offset"));
    }

    private DedicatedRedis node(int port) {
        Optional<DedicatedRedis> node = nodes.stream().filter(n -> n.port() == port).findFirst();
        return node.orElseThrow(() -> new IllegalStateException("a sentinel names port " + port
                + " as primary, which is no node of this deployment"));
    }

    private static int primaryPort(RedisProcess sentinel) {
        List<String> address = Resp.strings(Resp.call(sentinel.host(), sentinel.port(), null, "SENTINEL",
                "GET-MASTER-ADDR-BY-NAME", MASTER_NAME));
        return Integer.parseInt(address.get(1));
    }

    private static Map<String, String> sentinelMaster(RedisProcess sentinel) {
        return fields(Resp.call(sentinel.host(), sentinel.port(), null, "SENTINEL", "MASTER", MASTER_NAME));
    }

    private static List<Map<String, String>> replicas(RedisProcess sentinel) {
        List<?> replicas = (List<?>) Resp.call(sentinel.host(), sentinel.port(), null, "SENTINEL", "REPLICAS",
                MASTER_NAME);
        return replicas.stream().map(RedisSentinels::fields).toList();
    }

    /** A sentinel's flat {@code field, value, ...} reply as a map. */
    private static Map<String, String> fields(Object reply) {
        List<String> flat = Resp.strings(reply);
        Map<String, String> fields = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(flat.get(i), flat.get(i + 1));
        }
        return fields;
    }

    @Override
    public void close() {
        owned.close();
    }
}
