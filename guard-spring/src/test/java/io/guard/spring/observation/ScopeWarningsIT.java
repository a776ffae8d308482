package io.guard.spring.observation;

import brave.Tracing;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

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
 * Guard on a traced WebFlux application (Brave bridge, the tracing handlers Spring Boot registers) with
 * {@code spring.reactor.context-propagation=auto}, whose handlers call another service through the application's own
 * observed {@code WebClient}: each Guard annotation on the handler, and both together, must log exactly as many
 * {@code ObservationThreadLocalAccessor} scope warnings as the handler without one, with Guard's observations on or
 * off, on both Redis clients and in process (issue 32 item 5). Counted per path over a few requests, once the log
 * is quiet: a server's last signals may come after the answer.
 */
@RedisTest
@ExtendWith(OutputCaptureExtension.class)
class ScopeWarningsIT {

    private static final List<String> PATHS = List.of("/plain", "/limited", "/protected", "/both");
    private static final int REQUESTS = 3;

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(ManualTracing.class)
    static class App {
        /** Spring Boot's own {@code WebClient.Builder} where the line has it in reach (3.5), else one observed alike. */
        @Bean
        Catalog catalog(ObjectProvider<WebClient.Builder> builders, ObservationRegistry observations) {
            return new Catalog(builders.getIfAvailable(() -> WebClient.builder().observationRegistry(observations))
                    .build());
        }
    }

    /**
     * What Spring Boot's tracing auto-configuration registers (propagating handlers first, then the default), for the
     * Boot line whose test class path lacks it (on 4 it is a module of its own); on 3.5 Boot's own runs.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass("org.springframework.boot.actuate.autoconfigure.tracing.BraveAutoConfiguration")
    static class ManualTracing {
        @Bean(destroyMethod = "close")
        Tracing braveTracing() {
            return TracedRefusalTest.sampledTracing().build();
        }

        @Bean
        Tracer tracer(Tracing tracing) {
            return TracedRefusalTest.tracerOf(tracing);
        }

        @Bean
        ObservationHandler.FirstMatchingCompositeObservationHandler tracingObservationHandlers(Tracer tracer,
                                                                                               Tracing tracing) {
            Propagator propagator = new BravePropagator(tracing);
            return new ObservationHandler.FirstMatchingCompositeObservationHandler(
                    new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                    new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                    new DefaultTracingObservationHandler(tracer));
        }
    }

    /** Each handler asks the stock service (here: the same server) through the application's WebClient. */
    @RestController
    static class Catalog {
        private final WebClient client;

        Catalog(WebClient client) {
            this.client = client;
        }

        @GetMapping("/stock")
        public Mono<String> stock() {
            return Mono.just("42");
        }

        @GetMapping("/plain")
        public Mono<String> plain(ServerHttpRequest request) {
            return stockOf(request);
        }

        @GetMapping("/limited")
        @RateLimit(name = "scope-limited", rate = 1000, interval = "60s")
        public Mono<String> limited(ServerHttpRequest request) {
            return stockOf(request);
        }

        @GetMapping("/protected")
        @CircuitBreaker(name = "scope-breaker")
        public Mono<String> protectedCall(ServerHttpRequest request) {
            return stockOf(request);
        }

        @GetMapping("/both")
        @RateLimit(name = "scope-both", rate = 1000, interval = "60s")
        @CircuitBreaker(name = "scope-both")
        public Mono<String> both(ServerHttpRequest request) {
            return stockOf(request);
        }

        private Mono<String> stockOf(ServerHttpRequest request) {
            return client.get().uri(request.getURI().resolve("/stock")).retrieve().bodyToMono(String.class);
        }
    }

    @ParameterizedTest(name = "guard.observations.enabled={0} on {1}")
    @CsvSource({"true, redisson", "false, redisson", "true, lettuce", "false, lettuce", "true, local"})
    void guardsAnnotationsAddNoScopeWarning(boolean observations, String client, RedisEndpoint redis,
                                            CapturedOutput output) throws Exception {
        List<String> properties = new ArrayList<>(List.of("server.address=127.0.0.1", "server.port=0",
                "spring.reactor.context-propagation=auto", "guard.observations.enabled=" + observations,
                "management.tracing.sampling.probability=1.0",
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
                int before = warnings(output);
                for (int i = 0; i < REQUESTS; i++) {
                    assertThat(get(port, path)).isEqualTo("42");
                }
                warnings.put(path, settled(output) - before);
            }
            int plain = warnings.get("/plain");
            assertThat(warnings).as("scope warnings per %s requests", REQUESTS)
                    .containsOnly(Map.entry("/plain", plain), Map.entry("/limited", plain),
                            Map.entry("/protected", plain), Map.entry("/both", plain));
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
