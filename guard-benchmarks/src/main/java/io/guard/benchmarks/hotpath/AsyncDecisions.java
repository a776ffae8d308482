package io.guard.benchmarks.hotpath;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * Issue 27 item 4: decisions per second and application CPU per decision through the {@code @RateLimit} aspect on
 * Spring Data Redis's Lettuce (a {@code redis-server} this program starts on loopback), three ways: a blocking
 * method called by platform threads, a {@code Mono} method subscribed {@code concurrency} at a time, and (on Java
 * 21+) the blocking method called by virtual threads. The three take turns, round after round. Per mode it prints
 * the median round and the range, the JVM's peak live (platform) threads, and for virtual threads the
 * {@code jdk.VirtualThreadPinned} events JFR recorded (a decision that pinned its carrier would show there).
 *
 * <pre>
 * java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.hotpath.AsyncDecisions 5 3 64
 * /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -cp guard-benchmarks/target/benchmarks.jar \
 *     io.guard.benchmarks.hotpath.AsyncDecisions 5 3 64
 * </pre>
 * Arguments: seconds per round, rounds, concurrent callers. Every decision is allowed (1000 keys, a TOKEN_BUCKET
 * limit far above the load), so the numbers are the decision path's, not a refusal cache's. Bounded: each round
 * stops issuing at its deadline and waits at most 30 s for the calls in flight.
 */
public final class AsyncDecisions {

    private static final int KEYS = 1000;

    enum Mode { BLOCKING, MONO, VIRTUAL }

    private AsyncDecisions() {
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({AopAutoConfiguration.class, GuardAutoConfiguration.class})
    static class Beans {
        @Bean
        LettuceConnectionFactory redisConnectionFactory(org.springframework.core.env.Environment environment) {
            return new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1",
                    environment.getRequiredProperty("probe.redis-port", Integer.class)));
        }

        @Bean
        Limited limited() {
            return new Limited();
        }
    }

    /** The same limit behind a blocking and a reactive method. */
    public static class Limited {
        @RateLimit(name = "async-blocking", key = "#user", rate = 1_000_000_000_000L, interval = "1s",
                algorithm = "TOKEN_BUCKET")
        public String find(String user) {
            return user;
        }

        @RateLimit(name = "async-mono", key = "#user", rate = 1_000_000_000_000L, interval = "1s",
                algorithm = "TOKEN_BUCKET")
        public Mono<String> findMono(String user) {
            return Mono.just(user);
        }
    }

    record Round(long decisions, double seconds, long cpuNanos, int peakThreads) {
        double perSecond() {
            return decisions / seconds;
        }

        double cpuMicrosPerDecision() {
            return cpuNanos / 1000.0 / decisions;
        }
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int concurrency = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        boolean virtualThreads = Runtime.version().feature() >= 21;
        List<Mode> modes = virtualThreads ? List.of(Mode.values()) : List.of(Mode.BLOCKING, Mode.MONO);
        System.out.println("Java " + Runtime.version() + ", load average " + loadAverage());
        try (DedicatedRedis redis = RedisServers.startDedicated();
             AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("probe", Map.of(
                    "probe.redis-port", String.valueOf(redis.port()))));
            context.register(Beans.class);
            context.refresh();
            Limited limited = context.getBean(Limited.class);
            Map<Mode, List<Round>> results = new EnumMap<>(Mode.class);
            Path jfr = Files.createTempFile("guard-async", ".jfr");
            try (Recording pinned = new Recording()) {
                pinned.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
                pinned.start();
                for (Mode mode : modes) {
                    run(mode, limited, 2, concurrency); // warm-up
                }
                for (int round = 1; round <= rounds; round++) {
                    for (Mode mode : modes) {
                        Round result = run(mode, limited, seconds, concurrency);
                        results.computeIfAbsent(mode, m -> new ArrayList<>()).add(result);
                        System.out.printf(Locale.ROOT, "round %d %-8s %9.0f decisions/s %7.1f us CPU/decision, "
                                + "peak threads %d%n", round, mode, result.perSecond(),
                                result.cpuMicrosPerDecision(), result.peakThreads());
                    }
                }
                pinned.stop();
                pinned.dump(jfr);
            }
            System.out.println("load average at end: " + loadAverage());
            System.out.println();
            System.out.println("| mode | decisions/s | app CPU per decision, us | peak live platform threads |");
            System.out.println("|---|---|---|---|");
            results.forEach((mode, list) -> System.out.printf(Locale.ROOT, "| %s | %s | %s | %s |%n", mode,
                    median(list, Round::perSecond, "%.0f"), median(list, Round::cpuMicrosPerDecision, "%.1f"),
                    median(list, r -> r.peakThreads(), "%.0f")));
            reportPinning(jfr, virtualThreads);
            Files.deleteIfExists(jfr);
        }
    }

    private static Round run(Mode mode, Limited limited, int seconds, int concurrency) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        threads.resetPeakThreadCount();
        long cpuBefore = os.getProcessCpuTime();
        long started = System.nanoTime();
        long deadline = started + TimeUnit.SECONDS.toNanos(seconds);
        long decisions = switch (mode) {
            case BLOCKING -> blocking(Executors::newFixedThreadPool, limited, deadline, concurrency);
            case VIRTUAL -> blocking(n -> newVirtualThreadPerTaskExecutor(), limited, deadline, concurrency);
            case MONO -> mono(limited, deadline, concurrency);
        };
        double elapsed = (System.nanoTime() - started) / 1e9;
        return new Round(decisions, elapsed, os.getProcessCpuTime() - cpuBefore, threads.getPeakThreadCount());
    }

    private static long blocking(IntFunction<ExecutorService> executors, Limited limited, long deadline,
                                 int concurrency) throws InterruptedException {
        LongAdder done = new LongAdder();
        ExecutorService executor = executors.apply(concurrency);
        try {
            for (int i = 0; i < concurrency; i++) {
                executor.execute(() -> {
                    while (System.nanoTime() < deadline) {
                        limited.find(key());
                        done.increment();
                    }
                });
            }
        } finally {
            executor.shutdown();
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        }
        return done.sum();
    }

    private static long mono(Limited limited, long deadline, int concurrency) {
        List<Flux<String>> lanes = new ArrayList<>(concurrency);
        for (int i = 0; i < concurrency; i++) {
            lanes.add(Mono.defer(() -> limited.findMono(key())).repeat(() -> System.nanoTime() < deadline));
        }
        Long count = Flux.merge(lanes).count().block(Duration.ofNanos(deadline - System.nanoTime())
                .plusSeconds(30));
        return count == null ? 0 : count;
    }

    /** Java 21's {@code Executors.newVirtualThreadPerTaskExecutor()}; this module compiles for Java 17. */
    private static ExecutorService newVirtualThreadPerTaskExecutor() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("virtual threads need Java 21 or later", e);
        }
    }

    private static void reportPinning(Path jfr, boolean virtualThreads) throws Exception {
        if (!virtualThreads) {
            System.out.println("virtual threads: not on Java " + Runtime.version().feature());
            return;
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr).stream()
                .filter(event -> event.getEventType().getName().equals("jdk.VirtualThreadPinned")).toList();
        System.out.println("jdk.VirtualThreadPinned events (threshold 0): " + events.size());
        events.stream().map(AsyncDecisions::topFrames)
                .collect(Collectors.groupingBy(frames -> frames, Collectors.counting()))
                .entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(5)
                .forEach(entry -> System.out.println("  " + entry.getValue() + " x " + entry.getKey()));
    }

    private static String topFrames(RecordedEvent event) {
        if (event.getStackTrace() == null) {
            return "(no stack)";
        }
        return event.getStackTrace().getFrames().stream().limit(6).map(RecordedFrame::getMethod)
                .map(method -> method.getType().getName() + "." + method.getName())
                .collect(Collectors.joining(" < "));
    }

    private static String key() {
        return "user-" + ThreadLocalRandom.current().nextInt(KEYS);
    }

    private static String median(List<Round> rounds, java.util.function.ToDoubleFunction<Round> value,
                                 String format) {
        double[] sorted = rounds.stream().mapToDouble(value).sorted().toArray();
        String median = String.format(Locale.ROOT, format, sorted[sorted.length / 2]);
        return sorted.length == 1 ? median : median + " (" + String.format(Locale.ROOT, format, sorted[0]) + "-"
                + String.format(Locale.ROOT, format, sorted[sorted.length - 1]) + ")";
    }

    private static String loadAverage() throws java.io.IOException {
        return Files.readString(Path.of("/proc/loadavg")).trim();
    }
}
