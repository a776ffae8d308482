package io.guard.sample.scenario;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.sample.OrderServiceApplication;
import io.guard.sample.inventory.InventoryDownstream;
import org.springframework.boot.builder.SpringApplicationBuilder;
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

/**
 * Seed 004's load story against the sample app over real HTTP: 500 requests/s to {@code /inventory/*}, with the
 * downstream at 120 ms for 10 s, then 800 ms for 15 s, then 120 ms again for 15 s. Records for every 100 ms the
 * breaker state, the calls reaching the downstream, the fallback answers and the caller latency; writes
 * {@code inventory-slowdown.csv} and {@code inventory-slowdown.png} into the directory given as the only argument.
 *
 * <p>Run from the repository root: {@code mvn -B -pl guard-sample-app -am -DskipTests -Pscenario verify}.
 */
public final class LoadScenario {

    private static final int REQUESTS_PER_SECOND = 500;
    private static final int MAX_IN_FLIGHT = 2_000;
    private static final int SEED_SLOWDOWN_SECONDS = 15;
    private static final Duration WARM_UP = Duration.ofSeconds(5);

    private LoadScenario() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            throw new IllegalArgumentException("Usage: LoadScenario <output directory> [seconds of slowdown, default "
                    + SEED_SLOWDOWN_SECONDS + "]");
        }
        Path out = Files.createDirectories(Path.of(args[0]));
        int slowdown = args.length == 2 ? Integer.parseInt(args[1]) : SEED_SLOWDOWN_SECONDS;
        if (slowdown < 1) {
            throw new IllegalArgumentException("seconds of slowdown must be at least 1 but was " + slowdown);
        }
        List<Phase> phases = List.of(
                new Phase("normal", 120, Duration.ofSeconds(10)),
                new Phase("slow downstream", 800, Duration.ofSeconds(slowdown)),
                new Phase("recovered", 120, Duration.ofSeconds(15)));
        String name = slowdown == SEED_SLOWDOWN_SECONDS ? "inventory-slowdown" : "inventory-slowdown-" + slowdown + "s";
        // Command-line arguments outrank application.yml: a random port, and never a developer's Redis.
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(OrderServiceApplication.class)
                .run("--server.port=0", "--server.address=127.0.0.1", "--sample.redis.embedded=always",
                        "--logging.level.root=WARN", "--logging.level.io.guard.sample.redis=INFO")) {
            ExecutorService httpThreads = Executors.newFixedThreadPool(4);
            try {
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .executor(httpThreads).connectTimeout(Duration.ofSeconds(5)).build();
                // local.server.port: set by the web server on both Boot lines (its context type moved in Boot 4).
                int port = app.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
                run(app, client, "http://127.0.0.1:" + port, out, phases, name);
            } finally {
                httpThreads.shutdownNow();
            }
        }
    }

    private static void run(ConfigurableApplicationContext app, HttpClient client, String baseUrl, Path out,
                            List<Phase> phases, String name) throws Exception {
        InventoryDownstream downstream = app.getBean(InventoryDownstream.class);
        CircuitBreaker breaker = inventoryBreaker(app);

        // JIT, Tomcat's threads, connections and Redis warm up outside the recorded window, ramping up so that
        // a cold server does not build a backlog, which then drains before recording starts.
        setLatency(client, baseUrl, phases.get(0).latencyMs());
        Timeline warmUp = new Timeline(System.nanoTime(), WARM_UP.plus(Duration.ofSeconds(1)));
        LoadGenerator warmLoad = new LoadGenerator(client, baseUrl, warmUp, MAX_IN_FLIGHT);
        Duration step = WARM_UP.dividedBy(5);
        for (int rate = 100; rate <= REQUESTS_PER_SECOND; rate += 100) {
            warmLoad.run(rate, System.nanoTime() + step.toNanos());
        }
        if (!warmLoad.drain(Duration.ofSeconds(30))) {
            throw new IllegalStateException("The warm-up's requests did not finish within 30 s; the machine is too "
                    + "busy for this scenario");
        }
        breaker.reset();

        Duration total = phases.stream().map(Phase::length).reduce(Duration.ZERO, Duration::plus);
        long start = System.nanoTime() + Timeline.SLICE.toNanos();
        Timeline timeline = new Timeline(start, total.plus(Duration.ofSeconds(5)));
        List<Transition> transitions = Collections.synchronizedList(new ArrayList<>());
        breaker.addListener(event -> {
            switch (event.type()) {
                case STATE_TRANSITION -> transitions.add(new Transition(millisSince(start),
                        event.details().get("from"), event.details().get("to")));
                case SUCCESS, ERROR, IGNORED_ERROR -> {
                    int slice = timeline.slice(System.nanoTime() - event.duration().toNanos());
                    if (slice >= 0) {
                        timeline.downstreamCall(slice);
                    }
                }
                default -> { }
            }
        });
        long downstreamCallsBefore = downstream.calls();
        LoadGenerator load = new LoadGenerator(client, baseUrl, timeline, MAX_IN_FLIGHT);
        List<Long> phaseStartsMs = new ArrayList<>();
        while (System.nanoTime() < start) {
            Thread.onSpinWait();
        }
        for (Phase phase : phases) {
            // A phase starts when the server has confirmed the new latency, and lasts its full length from there.
            setLatency(client, baseUrl, phase.latencyMs());
            long phaseStart = System.nanoTime();
            phaseStartsMs.add(millisSince(start));
            System.out.printf("%6d ms  phase '%s': downstream latency %d ms%n", millisSince(start), phase.name(),
                    phase.latencyMs());
            load.run(REQUESTS_PER_SECOND, phaseStart + phase.length().toNanos());
        }
        long endMs = millisSince(start);
        if (!load.drain(Duration.ofSeconds(15))) {
            System.out.println("Some requests were still outstanding after 15 s");
        }
        long downstreamCalls = downstream.calls() - downstreamCallsBefore;

        List<Transition> seen = List.copyOf(transitions);
        List<Timeline.Row> rows = timeline.rows(seen).stream().filter(row -> row.startMs() < endMs).toList();
        write(out.resolve(name + ".csv"), rows);
        ScenarioPlot.write(rows, phaseStartsMs.subList(1, phaseStartsMs.size()),
                "500 req/s to /inventory: downstream 120 ms, 800 ms from 10 s, 120 ms from "
                        + (10 + phases.get(1).length().toSeconds()) + " s",
                out.resolve(name + ".png"));
        List<String> summary = new ArrayList<>(Summary.lines(rows, seen, phaseStartsMs.get(1), phaseStartsMs.get(2),
                endMs, load.shed()));
        summary.add("calls counted by the downstream itself during the run: " + downstreamCalls
                + " (the per-slice counts come from the breaker's call events)");
        Files.write(out.resolve(name + "-summary.txt"), summary);
        summary.forEach(System.out::println);
        System.out.println("Wrote " + out.resolve(name + ".csv") + ", .png and -summary.txt");
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
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
