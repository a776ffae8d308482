package io.guard.sample.scenario;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.event.GuardEvent;
import io.guard.sample.OrderServiceApplication;
import io.guard.sample.inventory.InventoryDownstream;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Seed 004's load story against the sample app over real HTTP: 500 requests/s to {@code /inventory/*}, with the
 * downstream at 120 ms for 10 s, then 800 ms for 15 s, then 120 ms again for 15 s. Records every 100 ms the breaker
 * state, the calls reaching the downstream, the fallback answers and the caller latency; writes
 * {@code inventory-slowdown.csv} and {@code inventory-slowdown.png} into the directory given as the only argument.
 *
 * <p>Run from the repository root: {@code mvn -B -pl guard-sample-app -am -DskipTests -Pscenario verify}.
 */
public final class LoadScenario {

    private static final int REQUESTS_PER_SECOND = 500;
    private static final int MAX_IN_FLIGHT = 2_000;
    private static final List<Phase> PHASES = List.of(
            new Phase("normal", 120, Duration.ofSeconds(10)),
            new Phase("slow downstream", 800, Duration.ofSeconds(15)),
            new Phase("recovered", 120, Duration.ofSeconds(15)));
    private static final Duration WARM_UP = Duration.ofSeconds(5);
    private static final String NAME = "inventory-slowdown";

    private LoadScenario() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("Usage: LoadScenario <output directory>");
        }
        Path out = Files.createDirectories(Path.of(args[0]));
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(OrderServiceApplication.class)
                .properties("server.port=0", "server.address=127.0.0.1", "sample.redis.embedded=always",
                        "logging.level.root=WARN", "logging.level.io.guard.sample.redis=INFO")
                .run()) {
            ExecutorService httpThreads = Executors.newFixedThreadPool(4);
            try {
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .executor(httpThreads).connectTimeout(Duration.ofSeconds(5)).build();
                int port = ((WebServerApplicationContext) app).getWebServer().getPort();
                run(app, client, "http://127.0.0.1:" + port, out);
            } finally {
                httpThreads.shutdownNow();
            }
        }
    }

    private static void run(ConfigurableApplicationContext app, HttpClient client, String baseUrl, Path out)
            throws Exception {
        InventoryDownstream downstream = app.getBean(InventoryDownstream.class);
        CircuitBreaker breaker = inventoryBreaker(app);

        // JIT, connection pools and Redis connections warm up outside the recorded window.
        setLatency(client, baseUrl, PHASES.get(0).latencyMs());
        Timeline warmUp = new Timeline(System.nanoTime(), WARM_UP);
        new LoadGenerator(client, baseUrl, warmUp, MAX_IN_FLIGHT)
                .run(REQUESTS_PER_SECOND, System.nanoTime() + WARM_UP.toNanos());
        breaker.reset();

        Duration total = PHASES.stream().map(Phase::length).reduce(Duration.ZERO, Duration::plus);
        long start = System.nanoTime() + Timeline.SLICE.toNanos();
        Timeline timeline = new Timeline(start, total.plus(Duration.ofSeconds(1)));
        List<Transition> transitions = Collections.synchronizedList(new ArrayList<>());
        breaker.addListener(event -> {
            if (event.type() == GuardEvent.Type.STATE_TRANSITION) {
                transitions.add(new Transition((System.nanoTime() - start) / 1_000_000,
                        event.details().get("from"), event.details().get("to")));
            }
        });
        ScheduledExecutorService sampler = sampler(timeline, breaker, downstream);
        LoadGenerator load = new LoadGenerator(client, baseUrl, timeline, MAX_IN_FLIGHT);
        List<Long> phaseStartsMs = new ArrayList<>();
        long phaseEnd = start;
        while (System.nanoTime() < start) {
            Thread.onSpinWait();
        }
        for (Phase phase : PHASES) {
            phaseStartsMs.add((phaseEnd - start) / 1_000_000);
            setLatency(client, baseUrl, phase.latencyMs());
            System.out.printf("%6d ms  phase '%s': downstream latency %d ms%n", (System.nanoTime() - start) / 1_000_000,
                    phase.name(), phase.latencyMs());
            phaseEnd += phase.length().toNanos();
            load.run(REQUESTS_PER_SECOND, phaseEnd);
        }
        long endMs = (phaseEnd - start) / 1_000_000;
        if (!load.drain(Duration.ofSeconds(15))) {
            System.out.println("Some requests were still outstanding after 15 s");
        }
        sampler.shutdownNow();

        List<Timeline.Row> rows = timeline.rows().stream().filter(row -> row.startMs() < endMs).toList();
        write(out.resolve(NAME + ".csv"), rows);
        ScenarioPlot.write(rows, phaseStartsMs.subList(1, phaseStartsMs.size()),
                "500 req/s to /inventory: downstream 120 ms, 800 ms from 10 s, 120 ms from 25 s",
                out.resolve(NAME + ".png"));
        List<String> summary = Summary.lines(rows, List.copyOf(transitions), phaseStartsMs.get(1),
                phaseStartsMs.get(2), endMs, load.shed());
        Files.write(out.resolve(NAME + "-summary.txt"), summary);
        summary.forEach(System.out::println);
        System.out.println("Wrote " + out.resolve(NAME + ".csv") + ", .png and -summary.txt");
    }

    /** At the end of every slice: the breaker's state and how many calls reached the downstream in the slice. */
    private static ScheduledExecutorService sampler(Timeline timeline, CircuitBreaker breaker,
                                                    InventoryDownstream downstream) {
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        long[] previous = {downstream.calls()};
        long firstDelay = timeline.startNanos() + Timeline.SLICE.toNanos() - System.nanoTime();
        sampler.scheduleAtFixedRate(() -> {
            int slice = timeline.slice(System.nanoTime() - Timeline.SLICE.toNanos() / 2);
            long calls = downstream.calls();
            if (slice >= 0) {
                timeline.sampled(slice, breaker.state().name(), calls - previous[0]);
            }
            previous[0] = calls;
        }, firstDelay, Timeline.SLICE.toNanos(), TimeUnit.NANOSECONDS);
        return sampler;
    }

    private static void setLatency(HttpClient client, String baseUrl, long latencyMs)
            throws IOException, InterruptedException {
        HttpRequest put = HttpRequest.newBuilder(URI.create(baseUrl + "/chaos/inventory"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"failureRate\": 0.0, \"latencyMs\": " + latencyMs + "}"))
                .build();
        HttpResponse<String> response = client.send(put, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("PUT /chaos/inventory answered " + response.statusCode() + ": "
                    + response.body());
        }
    }

    private static void write(Path csv, List<Timeline.Row> rows) throws IOException {
        List<String> lines = new ArrayList<>(rows.size() + 1);
        lines.add(Timeline.Row.CSV_HEADER);
        rows.forEach(row -> lines.add(row.csv()));
        Files.write(csv, lines);
    }

    /** The breaker the sample's {@code @CircuitBreaker(name = "inventory")} uses, from the starter's registry. */
    private static CircuitBreaker inventoryBreaker(ConfigurableApplicationContext app) {
        return app.getBean(CircuitBreakerRegistry.class).circuitBreaker("inventory");
    }
}
