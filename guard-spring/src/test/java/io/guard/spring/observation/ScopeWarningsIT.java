package io.guard.spring.observation;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Guard on a traced WebFlux application built as a user would: Spring Boot's own tracing auto-configuration (Brave;
 * on Boot 4 its {@code spring-boot-micrometer-tracing-brave} module), {@code spring.reactor.context-propagation=auto},
 * and handlers that call a second server, which answers on another thread, through Boot's observed
 * {@code WebClient.Builder} (issue 32 item 5). That alone logs no {@code ObservationThreadLocalAccessor} warning on
 * Boot 4.1 or 3.5; what makes the unguarded handler warn is an application that leaves an observation scope open in
 * its handler, as here. Each Guard annotation on such a handler, both together, and a URL-pattern limit
 * ({@code guard.rate-limit.routes}) must then log no more warnings than the handler without Guard, with Guard's
 * observations on or off, on both Redis clients and in process: Guard runs the handler inside Reactor's thread-local
 * restore, where every scope it leaves open used to warn again.
 * Counted per path over a few requests, once the log is quiet: a server's last signals may come after the answer.
 */
@RedisTest
@ExtendWith(OutputCaptureExtension.class)
class ScopeWarningsIT {

    private static final List<String> PATHS = List.of("/plain", "/limited", "/protected", "/both", "/routed");
    private static final int REQUESTS = 3;

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
        /** Spring Boot's own observed {@code WebClient.Builder}, as an application would use it. */
        @Bean
        Catalog catalog(WebClient.Builder builder, ObservationRegistry observations,
                        @Value("${stock.url}") String stock) {
            return new Catalog(builder.build(), observations, stock);
        }
    }

    /** Each handler asks the stock service through the application's WebClient, leaving a scope open as it goes. */
    @RestController
    static class Catalog {
        private final WebClient client;
        private final ObservationRegistry observations;
        private final String stock;

        Catalog(WebClient client, ObservationRegistry observations, String stock) {
            this.client = client;
            this.observations = observations;
            this.stock = stock;
        }

        @GetMapping("/plain")
        public Mono<String> plain() {
            return stock();
        }

        /** Limited by URL pattern ({@code guard.rate-limit.routes}), not by an annotation. */
        @GetMapping("/routed")
        public Mono<String> routed() {
            return stock();
        }

        @GetMapping("/limited")
        @RateLimit(name = "scope-limited", rate = 1000, interval = "60s")
        public Mono<String> limited() {
            return stock();
        }

        @GetMapping("/protected")
        @CircuitBreaker(name = "scope-breaker")
        public Mono<String> protectedCall() {
            return stock();
        }

        @GetMapping("/both")
        @RateLimit(name = "scope-both", rate = 1000, interval = "60s")
        @CircuitBreaker(name = "scope-both")
        public Mono<String> both() {
            return stock();
        }

        private Mono<String> stock() {
            Observation request = observations.getCurrentObservation();
            if (request != null) {
                request.openScope(); // the application's own mistake: never closed
            }
            return client.get().uri(stock).retrieve().bodyToMono(String.class);
        }
    }

    @ParameterizedTest(name = "guard.observations.enabled={0} on {1}")
    @CsvSource({"true, redisson", "false, redisson", "true, lettuce", "false, lettuce", "true, local", "false, local"})
    void guardsAnnotationsAddNoScopeWarning(boolean observations, String client, RedisEndpoint redis,
                                            CapturedOutput output) throws Exception {
        // The stock service answers on Reactor's timer thread, so the WebClient's answer comes on another thread.
        DisposableServer stock = HttpServer.create().host("127.0.0.1").port(0)
                .route(routes -> routes.get("/stock", (request, response) -> response
                        .sendString(Mono.delay(Duration.ofMillis(20)).map(tick -> "42"))))
                .bindNow();
        List<String> properties = new ArrayList<>(List.of("server.address=127.0.0.1", "server.port=0",
                "spring.reactor.context-propagation=auto", "guard.observations.enabled=" + observations,
                "management.tracing.sampling.probability=1.0",
                "stock.url=http://127.0.0.1:" + stock.port() + "/stock",
                "guard.rate-limit.routes[0].name=scope-route", "guard.rate-limit.routes[0].paths[0]=/routed",
                "guard.rate-limit.instances.scope-route.rate=1000",
                "guard.rate-limit.instances.scope-route.interval=60s",
                "spring.data.redis.url=" + redis.url(), "guard.rate-limit.key-prefix=" + redis.keyPrefix(),
                "guard.rate-limit.backend=" + (client.equals("local") ? "local" : "redis")));
        if (!client.equals("redisson")) {
            properties.add("spring.autoconfigure.exclude=org.redisson.spring.starter.RedissonAutoConfigurationV4,"
                    + "org.redisson.spring.starter.RedissonAutoConfigurationV2");
        }
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.REACTIVE).properties(properties.toArray(String[]::new)).run()) {
            int port = app.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
            get(port, "/plain"); // warm-up: the first request of a server logs what later ones do not
            Map<String, Integer> warnings = new LinkedHashMap<>();
            for (String path : PATHS) {
                int before = settled(output);
                for (int i = 0; i < REQUESTS; i++) {
                    assertThat(get(port, path)).isEqualTo("42");
                }
                warnings.put(path, settled(output) - before);
            }
            int plain = warnings.get("/plain");
            assertThat(warnings).as("scope warnings per %s requests", REQUESTS)
                    .allSatisfy((path, count) -> assertThat(count).as(path).isLessThanOrEqualTo(plain));
        } finally {
            stock.disposeNow();
        }
    }

    private static String get(int port, String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }

    private static int warnings(CapturedOutput output) {
        return (int) output.getAll().lines()
                .filter(line -> line.contains("WARN") && line.contains("ObservationThreadLocalAccessor")).count();
    }

    /** The count once it has not changed for a while: a server's last signals may come after the answer. */
    private static int settled(CapturedOutput output) {
        int[] last = {warnings(output)};
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ofMillis(300))
                .pollInterval(Duration.ofMillis(300)).until(() -> {
                    int now = warnings(output);
                    boolean stable = now == last[0];
                    last[0] = now;
                    return stable;
                });
        return last[0];
    }
}
