package io.guard.benchmarks.http;

import io.guard.benchmarks.RedisInfo;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What protecting one HTTP endpoint costs, as a user of each library pays it: {@link ItemsApp} started in a JVM of its
 * own per {@link Variant} (same flags), a {@code redis-server} this program starts on loopback, {@code wrk} at each
 * connection count over 1000 users, in interleaved rounds (the variant order rotated each round). Per run: requests per
 * second, p50/p99 latency, the application's CPU per request ({@code /proc/<pid>/stat}; also without the JIT
 * compiler's threads, and the context switches, per thread from {@code /proc/<pid>/task}) and Redis's
 * ({@code INFO cpu}, user + system), and the scripts Redis ran per request ({@code INFO commandstats}: EVALSHA and
 * EVAL; a pipelined batch is one). After the first round's load, a
 * correctness line per variant: {@code GET /check/{id}}, limited to 5 per 60 s, answers exactly five 200s, then
 * 429s.
 *
 * <p>Arguments: seconds per run, warm-up seconds (at each connection count), rounds, connection counts (e.g.
 * {@code 10 10 2 4,32}). System
 * properties: {@code -Dvariants=none,guard-lettuce-TOKEN_BUCKET} (names, or prefixes ending with {@code *}),
 * {@code -Dusers=1} (one hot key instead of 1000 users),
 * {@code -Dbaseline=<class path>} adds Guard variants again on another build (suffix {@code @baseline}; which:
 * {@code -Dbaseline.variants}, by default the Lettuce ones of TOKEN_BUCKET and SLIDING_LOG),
 * {@code -Djvm="-XX:..."} flags for every application JVM. Run:
 * {@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.http.HttpLoad 10 10 2 4,32}.
 */
public final class HttpLoad {

    /** Keys the load spreads over; {@code -Dusers=1} makes one hot key (what leased decisions are for). */
    static final int USERS = Integer.getInteger("users", 1000);
    static final long RATE = 1_000_000_000L;

    private HttpLoad() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = Integer.parseInt(args[0]);
        int warmUp = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        int[] connections = Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray();
        List<Variant> variants = selected();
        List<String> jvm = new ArrayList<>(List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC"));
        if (!System.getProperty("jvm", "").isBlank()) {
            jvm.addAll(Arrays.asList(System.getProperty("jvm").trim().split("\\s+")));
        }
        String ownClassPath = System.getProperty("java.class.path");
        Path script = Wrk.script(USERS);
        Map<String, List<Run>> results = new LinkedHashMap<>();
        try (DedicatedRedis redis = RedisServers.startDedicated()) {
            RedisEndpoint endpoint = redis.endpoint("");
            Map<String, String> correctness = new LinkedHashMap<>();
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < variants.size(); i++) {
                    Variant variant = variants.get((i + round) % variants.size());
                    endpoint.call("FLUSHALL");
                    try (AppProcess app = AppProcess.start(classPath(variant, ownClassPath), jvm,
                            variant.arguments(RATE, "1s", redis.port()), freePort())) {
                        // At every connection count: a lone call and a pipelined batch take different code paths,
                        // and a JIT still compiling one of them would be measured with it.
                        for (int c : connections) {
                            Wrk.run(app.port(), c, warmUp, script);
                        }
                        for (int c : connections) {
                            Run run = measure(app, endpoint, c, seconds, script);
                            results.computeIfAbsent(variant.name() + " @" + c, k -> new ArrayList<>()).add(run);
                            System.out.printf(Locale.ROOT, "round %d %-36s %3d conn  %s%n", round + 1, variant.name(),
                                    c, run);
                        }
                        if (round == 0) {
                            correctness.put(variant.name(), correctness(variant, app));
                        }
                    }
                }
            }
            System.out.println("\ncorrectness: GET /check/{id} (5 per 60 s), 8 requests of one user");
            correctness.forEach((name, statuses) -> System.out.printf(Locale.ROOT, "  %-36s %s%n", name, statuses));
        }
        summary(results, connections);
    }

    private static List<Variant> selected() {
        List<Variant> all = Variant.all();
        String names = System.getProperty("variants", "");
        List<Variant> selected = names.isBlank() ? all : all.stream().filter(v -> Arrays.stream(names.split(","))
                .anyMatch(n -> n.endsWith("*") ? v.name().startsWith(n.substring(0, n.length() - 1))
                        : v.name().equals(n))).toList();
        String baseline = System.getProperty("baseline", "");
        if (baseline.isBlank()) {
            return selected;
        }
        List<Variant> withBaseline = new ArrayList<>(selected);
        List<String> only = List.of(System.getProperty("baseline.variants", "guard-lettuce-TOKEN_BUCKET,"
                + "guard-lettuce-SLIDING_LOG").split(","));
        selected.stream().filter(v -> v.guard() && only.contains(v.name()))
                .forEach(v -> withBaseline.add(v.on(baseline, "@baseline")));
        return withBaseline;
    }

    private static String classPath(Variant variant, String own) {
        return variant.classPath() == null ? own : variant.classPath();
    }

    private static String correctness(Variant variant, AppProcess app) throws InterruptedException {
        StringJoiner statuses = new StringJoiner(" ");
        String user = "correctness-" + System.nanoTime();
        for (int i = 0; i < 8; i++) {
            statuses.add(Integer.toString(app.check(i, user)));
        }
        String expected = "200 200 200 200 200 429 429 429";
        if (!variant.limits()) {
            return statuses + "  (not limited)";
        }
        return statuses + (statuses.toString().equals(expected) ? "  ok" : "  WRONG, expected " + expected);
    }

    private static Run measure(AppProcess app, RedisEndpoint redis, int connections, int seconds, Path script)
            throws IOException, InterruptedException {
        long appBefore = app.cpuMicros();
        AppProcess.Threads threadsBefore = app.threads();
        double redisBefore = RedisInfo.cpuMicros(redis);
        long scriptsBefore = RedisInfo.scriptRuns(redis);
        Wrk wrk = Wrk.run(app.port(), connections, seconds, script);
        long appCpu = app.cpuMicros() - appBefore;
        AppProcess.Threads threads = app.threads().minus(threadsBefore);
        double redisCpu = RedisInfo.cpuMicros(redis) - redisBefore;
        long scripts = RedisInfo.scriptRuns(redis) - scriptsBefore;
        double requests = wrk.requests();
        return new Run(wrk, appCpu / requests, threads.cpuMicros() / requests, threads.compilerMicros() / requests,
                threads.contextSwitches() / requests, redisCpu / requests, scripts / requests);
    }


    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Medians over the rounds, and the application CPU (JIT compiler threads apart, see {@link AppProcess#threads})
     * each variant adds to the unprotected one, and to one bare Redis round trip ({@code roundtrip}) when it ran.
     */
    private static void summary(Map<String, List<Run>> results, int[] connections) {
        System.out.printf(Locale.ROOT, "%nmedians over the rounds (load average now: %s)%n", loadAverage());
        System.out.printf(Locale.ROOT, "%-36s %5s %8s %7s %7s %9s %9s %8s %8s %9s %7s %8s %8s %7s%n", "variant", "conn",
                "req/s", "p50 us", "p99 us", "app us", "w/o JIT", "JIT us", "added", "over r.t.", "cs/req",
                "redis us", "scr/req", "non-2xx");
        for (int c : connections) {
            double base = reference(results, "none @" + c);
            double roundTrip = reference(results, "roundtrip @" + c);
            results.forEach((key, runs) -> {
                if (!key.endsWith(" @" + c)) {
                    return;
                }
                double app = median(runs, Run::withoutCompilerMicrosPerRequest);
                System.out.printf(Locale.ROOT,
                        "%-36s %5d %8.0f %7.0f %7.0f %9.1f %9.1f %8.1f %8.1f %9.1f %7.2f %8.1f %8.3f %7d%n",
                        key.substring(0, key.lastIndexOf(" @")), c, median(runs, r -> r.wrk().perSecond()),
                        median(runs, r -> r.wrk().p50Micros()), median(runs, r -> r.wrk().p99Micros()),
                        median(runs, Run::appMicrosPerRequest), app, median(runs, Run::compilerMicrosPerRequest),
                        app - base, app - roundTrip, median(runs, Run::contextSwitchesPerRequest),
                        median(runs, Run::redisMicrosPerRequest), median(runs, Run::redisScriptsPerRequest),
                        runs.stream().mapToLong(r -> r.wrk().non2xx()).sum());
            });
        }
    }

    private static double reference(Map<String, List<Run>> results, String key) {
        List<Run> runs = results.get(key);
        return runs == null ? Double.NaN : median(runs, Run::withoutCompilerMicrosPerRequest);
    }

    private static double median(List<Run> runs, java.util.function.ToDoubleFunction<Run> value) {
        double[] sorted = runs.stream().mapToDouble(value).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    static String loadAverage() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * @param appMicrosPerRequest               every thread of the application
     * @param withoutCompilerMicrosPerRequest   every thread but the JIT compiler's
     * @param compilerMicrosPerRequest          the JIT compiler's threads
     * @param contextSwitchesPerRequest         of every thread
     */
    record Run(Wrk wrk, double appMicrosPerRequest, double withoutCompilerMicrosPerRequest,
               double compilerMicrosPerRequest, double contextSwitchesPerRequest, double redisMicrosPerRequest,
               double redisScriptsPerRequest) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%8.0f req/s  p50 %6.0f us  p99 %6.0f us  app %6.1f us/req (JIT %5.1f)  "
                    + "%4.2f cs/req  redis %5.1f us/req  %5.3f scripts/req  non-2xx %d  (load %s)", wrk.perSecond(),
                    wrk.p50Micros(), wrk.p99Micros(), appMicrosPerRequest, compilerMicrosPerRequest,
                    contextSwitchesPerRequest, redisMicrosPerRequest, redisScriptsPerRequest, wrk.non2xx(),
                    loadAverage());
        }
    }
}
