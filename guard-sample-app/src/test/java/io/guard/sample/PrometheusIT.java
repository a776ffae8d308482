package io.guard.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Grafana dashboard and the Prometheus alert rules in docs/observability, against the real parts: {@code promtool}
 * checks and unit-tests the rules, and a real Prometheus server scrapes the sample under load, loads the rules and
 * answers every query of the dashboard with series. Both need Debian's {@code prometheus} package (.ci/run installs
 * it); where it is missing the tests are reported as skipped with that reason, and in CI ({@code CI=true}) they fail.
 */
class PrometheusIT {

    private static final Path OBSERVABILITY = Path.of("..", "docs", "observability");
    private static final Duration BOUND = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void needsPrometheus() {
        boolean present = onPath("promtool") != null && onPath("prometheus") != null;
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("promtool and prometheus are not on PATH; .ci/run installs Debian's "
                    + "prometheus package for these tests");
        }
        assumeTrue(present, "promtool and prometheus are not on PATH: install Debian's prometheus package to check "
                + "docs/observability against a real Prometheus");
    }

    @Test
    void promtoolChecksAndUnitTestsTheAlertRules() throws Exception {
        assertThat(run(OBSERVABILITY, "promtool", "check", "rules", "guard-alerts.yml")).contains("SUCCESS: 5 rules found");
        assertThat(run(OBSERVABILITY, "promtool", "test", "rules", "guard-alerts-test.yml")).contains("SUCCESS");
    }

    @Test
    void aRealPrometheusScrapingTheSampleAnswersEveryDashboardQueryWithSeries() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "prometheus-it"));
        try (DedicatedRedis redis = RedisServers.startDedicated();
             SampleProcess sample = SampleProcess.start(dir.resolve("sample.log"), "--server.port=0",
                     "--server.address=127.0.0.1", "--sample.redis.embedded=never",
                     "--spring.data.redis.url=" + redis.url(), "--sample.inventory.latency=0ms",
                     "--guard.circuit-breaker.instances.inventory.max-concurrent-calls=10")) {
            int samplePort = sample.awaitPort(BOUND);
            int prometheusPort = freePort();
            Process prometheus = startPrometheus(dir, samplePort, prometheusPort);
            try {
                Http http = new Http(samplePort);
                HttpClient client = HttpClient.newHttpClient();
                await().atMost(BOUND).until(() -> query(client, prometheusPort, "up{job=\"guard\"} == 1").size() == 1);
                load(http);
                Map<String, String> empty = new TreeMap<>();
                await().atMost(BOUND).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
                    empty.clear();
                    for (String expr : dashboardQueries()) {
                        if (query(client, prometheusPort, expr).isEmpty()) {
                            empty.put(expr, "no series");
                        }
                    }
                    assertThat(empty).as("dashboard queries without series").isEmpty();
                });
                JsonNode rules = get(client, prometheusPort, "/api/v1/rules").path("data").path("groups");
                List<String> loaded = new ArrayList<>();
                rules.forEach(group -> group.path("rules").forEach(rule -> {
                    assertThat(rule.path("health").asText()).as("rule %s", rule.path("name")).isEqualTo("ok");
                    loaded.add(rule.path("name").asText());
                }));
                assertThat(loaded).containsExactlyInAnyOrder("GuardCircuitBreakerOpen",
                        "GuardRateLimitBackendBreakerOpen", "GuardRateLimitNotEnforcedByRedis",
                        "GuardShadowLimitWouldRefuse", "GuardBulkheadSaturated");
            } finally {
                prometheus.destroy();
                if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                    prometheus.destroyForcibly();
                }
            }
        }
    }

    /** Refusals, shadow refusals, a failing downstream that opens the breaker, and its fallbacks. */
    private static void load(Http http) {
        for (int user = 1; user <= 3; user++) {
            for (int i = 0; i < 7; i++) {
                http.post("/orders?userId=" + (9000 + user));
            }
        }
        http.put("/chaos/inventory", "{\"failureRate\": 1.0, \"latencyMs\": 0}");
        for (int i = 0; i < 12; i++) {
            http.get("/inventory/sku-" + i);
        }
        http.get("/orders/1");
    }

    /** Every query of every panel, with the dashboard's variables as Grafana would fill them for "All". */
    private static List<String> dashboardQueries() throws IOException {
        List<String> queries = new ArrayList<>();
        JsonNode dashboard = JSON.readTree(OBSERVABILITY.resolve("guard-dashboard.json").toFile());
        dashboard.path("panels").forEach(panel -> panel.path("targets").forEach(target -> queries.add(
                target.path("expr").asText().replace("$__rate_interval", "1m").replace("$limit", ".*")
                        .replace("$breaker", ".*"))));
        assertThat(queries).as("queries in the dashboard").hasSizeGreaterThanOrEqualTo(10);
        return queries;
    }

    private static Process startPrometheus(Path dir, int samplePort, int port) throws IOException {
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                rule_files:
                  - %s
                scrape_configs:
                  - job_name: guard
                    metrics_path: /actuator/prometheus
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(OBSERVABILITY.resolve("guard-alerts.yml").toAbsolutePath(), samplePort));
        return new ProcessBuilder("prometheus", "--config.file=" + config.toAbsolutePath(),
                "--storage.tsdb.path=" + dir.resolve("data").toAbsolutePath(),
                "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
    }

    private static JsonNode query(HttpClient client, int port, String expr) throws Exception {
        JsonNode answer = get(client, port, "/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
        assertThat(answer.path("status").asText()).as("%s: %s", expr, answer).isEqualTo("success");
        return answer.path("data").path("result");
    }

    private static JsonNode get(HttpClient client, int port, String path) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body());
    }

    private static String run(Path dir, String... command) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("%s: %s", String.join(" ", command), output).isZero();
        return output;
    }

    private static String onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name).toString();
            }
        }
        return null;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
