package io.guard.benchmarks.adaptive;

import io.guard.bulkhead.Bulkhead;
import io.guard.spring.bulkhead.AdaptiveAlgorithm;
import io.guard.spring.bulkhead.AdaptiveLimitProperties;
import io.guard.spring.bulkhead.AdaptiveLimits;
import io.guard.time.GuardClock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A downstream that slows from 10 ms to 500 ms under a steady load, and what its callers get with no bulkhead, with
 * fixed bulkheads and with adaptive ones: a load program, not a timed test. Everything runs in this JVM, without a
 * network: requests arrive open-loop at a fixed rate (they do not wait for earlier answers, as users do not), each
 * is handled by one of 200 server threads (Tomcat's default) that calls a {@link SlowingDownstream} of 32 workers
 * through Guard's {@link Bulkhead} (the same type and permit protocol the {@code @CircuitBreaker} aspect uses), and
 * is either answered (200) or refused at once by the bulkhead (503). Goodput counts the 200s answered within 1 s of
 * arrival; latencies are from the scheduled arrival, so time queued for a server thread counts.
 *
 * <p>Phases, in seconds: healthy (10 ms), slow (500 ms), recovered (10 ms). The downstream then handles 3200 calls/s,
 * then 64/s: the load (200/s by default) is 6 % of its capacity, then three times it. Each variant runs once, in
 * turn, in the same JVM. Arguments: rate per second, then the three phases' seconds (default {@code 200 8 16 8}).
 * Run: {@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.adaptive.AdaptiveLoad 200 8 16 8}.
 */
public final class AdaptiveLoad {

    static final int SERVER_THREADS = 200;
    static final int DOWNSTREAM_CAPACITY = 32;
    static final long SLO_MICROS = Duration.ofSeconds(1).toNanos() / 1000;
    static final Duration DRAIN = Duration.ofSeconds(120);

    private record Variant(String name, Supplier<Bulkhead> bulkhead) {
    }

    private AdaptiveLoad() {
    }

    public static void main(String[] args) throws InterruptedException {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int[] phases = {arg(args, 1, 8), arg(args, 2, 16), arg(args, 3, 8)};
        List<Variant> variants = List.of(
                new Variant("none", () -> null),
                new Variant("fixed 32 (the downstream's capacity)", () -> fixed(32)),
                new Variant("fixed 100", () -> fixed(100)),
                new Variant("adaptive gradient2 (defaults)", () -> adaptive(new AdaptiveLimitProperties())),
                new Variant("adaptive aimd (timeout 250ms)", () -> {
                    AdaptiveLimitProperties aimd = new AdaptiveLimitProperties();
                    aimd.setAlgorithm(AdaptiveAlgorithm.AIMD);
                    aimd.setTimeout(Duration.ofMillis(250));
                    return adaptive(aimd);
                }));
        List<String> rows = new ArrayList<>();
        for (Variant variant : variants) {
            List<PhaseStats> stats = run(variant, rate, phases);
            stats.forEach(s -> rows.add(s.row(variant.name())));
            stats.forEach(s -> System.out.println(s.row(variant.name())));
        }
        System.out.println();
        System.out.println("| variant | phase | offered/s | answered/s | goodput/s (200 within 1 s) | refused/s "
                + "| p50 ms | p99 ms | limit: lowest / at end |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        rows.forEach(System.out::println);
    }

    private static int arg(String[] args, int i, int fallback) {
        return args.length > i ? Integer.parseInt(args[i]) : fallback;
    }

    private static Bulkhead fixed(int max) {
        return new Bulkhead("downstream", max, GuardClock.system(), 100);
    }

    private static Bulkhead adaptive(AdaptiveLimitProperties settings) {
        return new Bulkhead("downstream", AdaptiveLimits.create(settings), AdaptiveLimits.retryAfter(settings),
                GuardClock.system(), 100);
    }

    private static List<PhaseStats> run(Variant variant, int rate, int[] phases) throws InterruptedException {
        List<PhaseStats> stats = List.of(new PhaseStats("healthy", phases[0]), new PhaseStats("slow", phases[1]),
                new PhaseStats("recovered", phases[2]));
        Bulkhead bulkhead = variant.bulkhead().get();
        long start = System.nanoTime();
        long total = TimeUnit.SECONDS.toNanos(phases[0] + phases[1] + phases[2]);
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        ExecutorService server = Executors.newFixedThreadPool(SERVER_THREADS);
        try (SlowingDownstream downstream = new SlowingDownstream(DOWNSTREAM_CAPACITY, start, phases[0],
                phases[0] + phases[1])) {
            for (long i = 0; i * interval < total; i++) {
                long arrival = start + i * interval;
                LockSupport.parkNanos(arrival - System.nanoTime());
                PhaseStats phase = stats.get(phaseOf(arrival - start, phases));
                phase.arrived();
                phase.limit(bulkhead == null ? -1 : bulkhead.maxConcurrentCalls());
                server.execute(() -> handle(arrival, phase, bulkhead, downstream));
            }
            server.shutdown();
            if (!server.awaitTermination(DRAIN.toSeconds(), TimeUnit.SECONDS)) {
                System.out.printf(Locale.ROOT, "%s: %d s after the load, requests were still waiting; stopped%n",
                        variant.name(), DRAIN.toSeconds());
                server.shutdownNow();
            }
        }
        return stats;
    }

    private static int phaseOf(long elapsedNanos, int[] phases) {
        long seconds = TimeUnit.NANOSECONDS.toSeconds(elapsedNanos);
        return seconds < phases[0] ? 0 : seconds < phases[0] + phases[1] ? 1 : 2;
    }

    private static void handle(long arrival, PhaseStats phase, Bulkhead bulkhead, SlowingDownstream downstream) {
        Bulkhead.Permit permit = bulkhead == null ? null : bulkhead.tryAcquire();
        if (bulkhead != null && permit == null) {
            phase.refused();
            return;
        }
        try {
            downstream.call().get();
            if (permit != null) {
                permit.onSuccess();
            }
            phase.answered((System.nanoTime() - arrival) / 1000, SLO_MICROS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // stopped after the drain time: not an answer
        } catch (ExecutionException e) {
            throw new IllegalStateException("the downstream failed", e);
        } finally {
            if (permit != null) {
                permit.release();
            }
        }
    }
}
