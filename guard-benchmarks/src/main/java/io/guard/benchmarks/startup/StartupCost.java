package io.guard.benchmarks.startup;

import io.guard.benchmarks.startup.app.StartupApp;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * What Guard costs an application at start-up (issue 27): {@link StartupApp} started again and again in fresh JVMs,
 * the variants of {@link StartupVariant} taking turns (interleaved, so a burst of load from elsewhere hits them all
 * alike). Per start: the application's CPU until {@code SpringApplication.run} returned (its own
 * {@code /proc/self/stat}), the classes loaded by then, the wall time from launching the JVM to that moment, the
 * latency of the first request ({@code GET /items/1?user=u1}), the Redis connections the application opened, and the
 * Guard beans it has. One local {@code redis-server} on a free loopback port serves every start.
 *
 * <pre>
 * mvn -B -q -pl guard-benchmarks -am package -DskipTests \
 *     org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile=target/classpath.txt
 * java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.startup.StartupCost 5
 * </pre>
 * Arguments: starts per variant (default 5), then the variants (default all). {@code -Dstartup.jvmArgs="..."} adds
 * JVM options to every start (e.g. {@code -Xlog:class+load:file=/tmp/cl-%p.log}), {@code -Dstartup.java=...} picks
 * the {@code java} executable, {@code -Dstartup.before=/path/to/other/checkout} runs every Guard variant a second
 * time with that checkout's Guard jars (before and after a change, in one interleaved run; {@code
 * -Dstartup.beforeOnly=LETTUCE,DISABLED} limits that to some variants). Bounded: each start
 * waits at most 120 s for the application.
 */
public final class StartupCost {

    private static final Path MODULE = Path.of("guard-benchmarks", "target");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(300);

    private StartupCost() {
    }

    record Start(long cpuMillis, long classes, long wallMillis, long firstRequestMicros, long connections,
                 long guardBeans) {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        List<StartupVariant> chosen = args.length > 1
                ? Arrays.stream(args).skip(1).map(name -> StartupVariant.valueOf(name.toUpperCase(Locale.ROOT)))
                .toList()
                : List.of(StartupVariant.values());
        String beforeRoot = System.getProperty("startup.before");
        List<String> beforeOnly = Arrays.stream(System.getProperty("startup.beforeOnly", "").split(","))
                .map(String::trim).filter(name -> !name.isEmpty()).map(name -> name.toUpperCase(Locale.ROOT)).toList();
        List<Run> variants = new ArrayList<>();
        for (StartupVariant variant : chosen) {
            variants.add(new Run(variant, null));
            if (beforeRoot != null && variant.guard && (beforeOnly.isEmpty() || beforeOnly.contains(variant.name()))) {
                variants.add(new Run(variant, Path.of(beforeRoot)));
            }
        }
        List<String> classPath = readClassPath();
        Map<Run, List<Start>> results = new LinkedHashMap<>();
        System.out.println("load average at start: " + Files.readString(Path.of("/proc/loadavg")).trim());
        try (DedicatedRedis redis = RedisServers.startDedicated()) {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            for (int round = 1; round <= rounds; round++) {
                for (Run variant : variants) {
                    Start start = start(variant, classPath, redis, http);
                    results.computeIfAbsent(variant, v -> new ArrayList<>()).add(start);
                    System.out.printf(Locale.ROOT, "round %d %-22s %s%n", round, variant.name(), start);
                }
            }
        }
        System.out.println("load average at end: " + Files.readString(Path.of("/proc/loadavg")).trim());
        System.out.println();
        System.out.println("| variant | CPU to started, ms | classes loaded | wall to started, ms | first request, ms "
                + "| Redis connections | Guard beans |");
        System.out.println("|---|---|---|---|---|---|---|");
        results.forEach((variant, starts) -> System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s |%n",
                variant.label(), range(starts, Start::cpuMillis), range(starts, Start::classes),
                range(starts, Start::wallMillis), rangeMillis(starts, Start::firstRequestMicros),
                range(starts, Start::connections), range(starts, Start::guardBeans)));
    }

    /**
     * A variant, run with this checkout's Guard jars or, with {@code before} (the root of another checkout, built with
     * {@code mvn -pl guard-spring-boot-starter -am package -DskipTests}), with that checkout's.
     */
    record Run(StartupVariant variant, Path before) {

        String name() {
            return variant + (before == null ? "" : " (before)");
        }

        String label() {
            return variant.label + (before == null ? "" : ", before");
        }

        String classPath(List<String> entries) {
            return entries.stream().filter(entry -> variant.wants(new File(entry).getName(), before != null))
                    .map(this::fromBefore).collect(Collectors.joining(File.pathSeparator));
        }

        /** guard-x/target/guard-x-VERSION.jar of this checkout as the same file of the other checkout. */
        private String fromBefore(String entry) {
            Path jar = Path.of(entry);
            String name = jar.getFileName().toString();
            if (before == null || !name.startsWith("guard-") || jar.getParent() == null
                    || !jar.getParent().getFileName().toString().equals("target")) {
                return entry;
            }
            return before.resolve(jar.getParent().getParent().getFileName()).resolve("target").resolve(name)
                    .toString();
        }
    }

    private static Start start(Run variant, List<String> classPath, DedicatedRedis redis, HttpClient http)
            throws Exception {
        String cp = variant.classPath(classPath);
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("startup.java", Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        String jvmArgs = System.getProperty("startup.jvmArgs", "").trim();
        if (!jvmArgs.isEmpty()) {
            command.addAll(Arrays.asList(jvmArgs.split("\\s+")));
        }
        command.addAll(List.of("-cp", cp, StartupApp.class.getName(), "--server.port=0",
                "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redis.port(),
                "--logging.level.root=WARN", "--spring.main.banner-mode=off"));
        command.addAll(variant.variant().arguments);
        long connectionsBefore = connectionsReceived(redis);
        long launched = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String line = awaitStarted(process);
            long wallMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - launched);
            Map<String, String> values = Arrays.stream(line.substring("STARTUP ".length()).split(" "))
                    .map(pair -> pair.split("=", 2)).collect(Collectors.toMap(p -> p[0], p -> p[1]));
            long before = System.nanoTime();
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + values.get("port") + "/items/1?user=u1")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            long firstRequestMicros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - before);
            if (response.statusCode() != 200) {
                throw new IllegalStateException(variant + ": first request answered " + response.statusCode()
                        + " " + response.body());
            }
            return new Start(Long.parseLong(values.get("cpuMs")), Long.parseLong(values.get("classes")), wallMillis,
                    // less the connection the second INFO opened for itself
                    firstRequestMicros, connectionsReceived(redis) - connectionsBefore - 1,
                    Long.parseLong(values.get("guardBeans")));
        } finally {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Reads the application's output until its STARTUP line; fails with the output if it ends first. */
    private static String awaitStarted(Process process) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        Thread watchdog = new Thread(() -> {
            try {
                if (!process.waitFor(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        watchdog.setDaemon(true);
        watchdog.start();
        try {
            String line;
            while ((line = out.readLine()) != null && System.nanoTime() < deadline) {
                if (line.startsWith("STEPS ")) {
                    System.out.println(line);
                }
                if (line.startsWith("STARTUP ")) {
                    Thread drain = new Thread(() -> drain(out));
                    drain.setDaemon(true);
                    drain.start();
                    return line;
                }
                seen.append(line).append('\n');
            }
        } finally {
            watchdog.interrupt();
        }
        throw new IllegalStateException("the application ended or took longer than " + START_TIMEOUT
                + " without starting:\n" + seen);
    }

    /** Keeps reading the application's output, so that it never blocks on a full pipe, until it ends. */
    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // the application's log after start-up is not needed
            }
        } catch (IOException closed) {
            // the application was stopped
        }
    }

    /** Connections Redis has accepted so far, this call's own included ({@code INFO stats total_connections_received}). */
    private static long connectionsReceived(DedicatedRedis redis) {
        return Long.parseLong(redis.info("stats").get("total_connections_received"));
    }

    private static List<String> readClassPath() throws IOException {
        Path file = MODULE.resolve("classpath.txt");
        if (!Files.exists(file)) {
            throw new IllegalStateException(file.toAbsolutePath() + " is missing: run the mvn command in this "
                    + "class's Javadoc from the repository root first");
        }
        List<String> entries = new ArrayList<>(List.of(Files.readString(file).trim().split(File.pathSeparator)));
        entries.add(0, MODULE.resolve("classes").toAbsolutePath().toString());
        return entries;
    }

    private static String range(List<Start> starts, ToLongFunction<Start> value) {
        long[] sorted = starts.stream().mapToLong(value).sorted().toArray();
        long median = sorted[sorted.length / 2];
        return sorted[0] == sorted[sorted.length - 1] ? String.valueOf(median)
                : median + " (" + sorted[0] + "-" + sorted[sorted.length - 1] + ")";
    }

    private static String rangeMillis(List<Start> starts, ToLongFunction<Start> micros) {
        long[] sorted = starts.stream().mapToLong(micros).sorted().toArray();
        return String.format(Locale.ROOT, "%.0f (%.0f-%.0f)", sorted[sorted.length / 2] / 1000.0,
                sorted[0] / 1000.0, sorted[sorted.length - 1] / 1000.0);
    }
}
