package io.guard.spring.observation;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import brave.sampler.Sampler;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End to end with micrometer-tracing (Brave bridge): a real server on loopback, Spring Boot's HTTP server
 * observation, Guard's observations, and a test {@link SpanHandler} that keeps every finished span. A refused request
 * has a span naming the refusing limit and the retry-after under the request's span; a fallback's span names the
 * breaker state that sent the call there. {@link TracedReactiveRefusalIT} does the same on WebFlux and Redis.
 */
class TracedRefusalTest {

    private static final String[] PROPERTIES = {"server.address=127.0.0.1", "server.port=0",
            "guard.rate-limit.backend=local",
            "spring.autoconfigure.exclude=org.redisson.spring.starter.RedissonAutoConfigurationV4,"
                    + "org.redisson.spring.starter.RedissonAutoConfigurationV2",
            "guard.circuit-breaker.instances.trace-stock.sliding-window-size=1",
            "guard.circuit-breaker.instances.trace-stock.minimum-number-of-calls=1",
            "guard.circuit-breaker.instances.trace-stock.wait-duration-in-open-state=60s"};

    /** Keeps every finished span. */
    static final class Spans extends SpanHandler {
        final List<MutableSpan> finished = new CopyOnWriteArrayList<>();

        @Override
        public boolean end(TraceContext context, MutableSpan span, Cause cause) {
            finished.add(span);
            return true;
        }

        List<MutableSpan> named(String name) {
            return finished.stream().filter(span -> name.equals(span.name())).toList();
        }
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
        @Bean
        Spans spans() {
            return new Spans();
        }

        @Bean(destroyMethod = "close")
        Tracing braveTracing(Spans spans) {
            return sampledTracing().addSpanHandler(spans).build();
        }

        @Bean
        Tracer tracer(Tracing tracing) {
            return tracerOf(tracing);
        }

        /** What Spring Boot's tracing auto-configuration registers: every observation becomes a span. */
        @Bean
        DefaultTracingObservationHandler tracingObservationHandler(Tracer tracer) {
            return new DefaultTracingObservationHandler(tracer);
        }

        @Bean
        Shop shop() {
            return new Shop();
        }
    }

    @RestController
    static class Shop {
        @GetMapping("/orders")
        @RateLimit(name = "trace-orders", rate = 1, interval = "60s")
        public String orders() {
            return "ok";
        }

        @GetMapping("/stock")
        @CircuitBreaker(name = "trace-stock", fallbackMethod = "cached")
        public String stock() {
            throw new IllegalStateException("stock service down");
        }

        @SuppressWarnings("unused")
        private String cached(Throwable error) {
            return "cached";
        }

        @GetMapping("/reactive/orders")
        @RateLimit(name = "trace-reactive-orders", rate = 1, interval = "60s")
        public Mono<String> reactiveOrders() {
            return Mono.just("ok");
        }
    }

    /** Brave sampling every trace, with thread-local current contexts (what Spring Boot configures). */
    static Tracing.Builder sampledTracing() {
        return Tracing.newBuilder().sampler(Sampler.ALWAYS_SAMPLE)
                .currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder().build());
    }

    /** Micrometer's tracer over {@code tracing}, as the Brave bridge's auto-configuration makes it. */
    static Tracer tracerOf(Tracing tracing) {
        return new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()),
                new BraveBaggageManager());
    }

    @Test
    void aRefusedRequestHasASpanNamingTheLimitAndTheRetryAfterAndAFallbackTheBreakerState() throws Exception {
        try (ConfigurableApplicationContext app = start(WebApplicationType.SERVLET)) {
            assertThat(get(app, "/orders")).isEqualTo(200);
            assertThat(get(app, "/orders")).isEqualTo(429);
            assertThat(get(app, "/stock")).isEqualTo(200); // failure recorded, the breaker opens, fallback
            assertThat(get(app, "/stock")).isEqualTo(200); // open breaker, fallback

            Spans spans = app.getBean(Spans.class);
            MutableSpan refused = await(spans, "ratelimit trace-orders", 2).get(1);
            assertThat(refused.tags()).containsEntry("guard.limit", "trace-orders")
                    .containsEntry("guard.outcome", "refused");
            assertThat(refused.tag("guard.retry-after")).as("the wait, in ms unless whole seconds")
                    .matches("(59\\d{3}ms|60s)");
            assertThat(refused.error()).isNull();
            assertChildOfRequestSpan(spans, refused);

            List<MutableSpan> stock = await(spans, "circuitbreaker trace-stock", 2);
            assertThat(stock.get(0).tags()).containsEntry("guard.state", "CLOSED")
                    .containsEntry("guard.outcome", "failure").containsEntry("guard.fallback", "true");
            assertThat(stock.get(1).tags()).containsEntry("guard.state", "OPEN")
                    .containsEntry("guard.outcome", "not-permitted").containsEntry("guard.fallback", "true");
            assertChildOfRequestSpan(spans, stock.get(1));
        }
    }

    static ConfigurableApplicationContext start(WebApplicationType type, String... more) {
        List<String> properties = new java.util.ArrayList<>(List.of(PROPERTIES));
        properties.addAll(List.of(more));
        return new SpringApplicationBuilder(App.class).web(type).properties(properties.toArray(String[]::new)).run();
    }

    static int get(ConfigurableApplicationContext app, String path) throws Exception {
        int port = app.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
        return response.statusCode();
    }

    /** The spans of that name once there are {@code count} (a server span may end after the response is sent). */
    static List<MutableSpan> await(Spans spans, String name, int count) throws InterruptedException {
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).untilAsserted(() ->
                assertThat(spans.named(name)).as("spans named '%s' among %s", name, names(spans))
                        .hasSizeGreaterThanOrEqualTo(count));
        return spans.named(name);
    }

    static void assertChildOfRequestSpan(Spans spans, MutableSpan span) throws InterruptedException {
        AtomicReference<MutableSpan> found = new AtomicReference<>();
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
            found.set(spans.finished.stream().filter(candidate -> candidate.id().equals(span.parentId()))
                    .findFirst().orElse(null));
            assertThat(found.get()).as("the parent of %s among %s", span.name(), names(spans)).isNotNull();
        });
        MutableSpan parent = found.get();
        assertThat(parent.traceId()).isEqualTo(span.traceId());
        assertThat(parent.name()).startsWith("http get");
    }

    private static List<String> names(Spans spans) {
        return spans.finished.stream().map(span -> span.name() + " " + Map.of("id", span.id(),
                "parent", String.valueOf(span.parentId()))).toList();
    }
}
