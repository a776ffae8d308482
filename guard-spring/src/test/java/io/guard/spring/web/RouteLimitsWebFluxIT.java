package io.guard.spring.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebFlux, limits by URL pattern on a real Redis: a controller without annotations and a static resource are
 * limited by configuration alone, decided without blocking, and a refusal answers exactly like a refused
 * {@code @RateLimit} handler.
 */
@RedisTest
class RouteLimitsWebFluxIT {

    private static final String[] ROUTES = {
            "guard.rate-limit.instances.partner.rate=2", "guard.rate-limit.instances.partner.interval=60s",
            "guard.rate-limit.routes[0].name=partner", "guard.rate-limit.routes[0].paths[0]=/partner/**",
            "guard.rate-limit.routes[0].methods[0]=GET",
            "guard.rate-limit.routes[0].key=#request.header('X-Api-Key')",
            "guard.rate-limit.instances.static-files.rate=2", "guard.rate-limit.instances.static-files.interval=60s",
            "guard.rate-limit.routes[1].name=static-files", "guard.rate-limit.routes[1].paths[0]=/guard-routes/*.txt",
            "guard.rate-limit.instances.shared.rate=3", "guard.rate-limit.instances.shared.interval=60s",
            "guard.rate-limit.routes[2].name=shared", "guard.rate-limit.routes[2].paths[0]=/shared"};

    /** Seconds left of the 60 s window, allowing a loaded machine up to 20 s between the first request and this one. */
    private static final String SECONDS_LEFT = "(4\\d|5\\d|60)";

    private static AnnotationConfigApplicationContext context;
    private static RedisEndpoint redis;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"JacksonAutoConfiguration", "CodecsAutoConfiguration", "WebFluxAutoConfiguration",
            "HttpHandlerAutoConfiguration", "DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(PartnerController.class)
    static class Partner {
    }

    @RestController
    static class PartnerController {
        @GetMapping("/partner/orders")
        public Mono<String> orders() {
            return Mono.just("orders");
        }

        @PostMapping("/partner/orders")
        public Mono<String> submit() {
            return Mono.just("submitted");
        }

        @GetMapping("/shared")
        public Mono<String> shared() {
            return Mono.just("shared");
        }

        @GetMapping("/annotated")
        @RateLimit(name = "annotated", rate = 2, interval = "60s")
        public Mono<String> annotated() {
            return Mono.just("annotated");
        }
    }

    @BeforeAll
    static void start(RedisEndpoint endpoint) {
        redis = endpoint;
        context = startContext();
    }

    private static AnnotationConfigApplicationContext startContext() {
        return RedisBacked.start(AutoConfigs.reactiveWebContext(), redis, c -> c.register(Partner.class), ROUTES);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    private static WebTestClient client(AnnotationConfigApplicationContext context) {
        return WebTestClient.bindToApplicationContext(context).build();
    }

    private static Exchange partnerGet(WebTestClient client, String apiKey) {
        return Exchange.of(client.get().uri("/partner/orders").header("X-Api-Key", apiKey));
    }

    @Test
    void aControllerWithoutAnnotationsIsLimitedPerKeyAndRefusedLikeAnAnnotatedOne() {
        WebTestClient client = client(context);
        Exchange first = partnerGet(client, "acme");
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.body()).isEqualTo("orders");
        assertThat(first.header("RateLimit-Policy")).isEqualTo("\"partner\";q=2;w=60");
        assertThat(first.header("RateLimit")).matches("\"partner\";r=1;t=" + SECONDS_LEFT);
        assertThat(partnerGet(client, "acme").status()).isEqualTo(200);
        Exchange refused = partnerGet(client, "acme");
        assertThat(partnerGet(client, "globex").status()).isEqualTo(200);

        Exchange.get(client, "/annotated");
        Exchange.get(client, "/annotated");
        Exchange annotated = Exchange.get(client, "/annotated");

        assertThat(refused.status()).isEqualTo(429).isEqualTo(annotated.status());
        assertThat(refused.isProblem()).isTrue();
        assertThat(annotated.isProblem()).isTrue();
        assertThat(refused.header("Retry-After")).matches(SECONDS_LEFT);
        assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"partner\";q=2;w=60");
        assertThat(refused.header("RateLimit")).matches("\"partner\";r=0;t=" + SECONDS_LEFT);
        assertThat(headerNames(refused)).containsExactlyInAnyOrderElementsOf(headerNames(annotated));
        JsonNode problem = refused.json();
        JsonNode twin = annotated.json();
        assertThat(fieldNames(problem)).containsExactlyInAnyOrderElementsOf(fieldNames(twin));
        assertThat(problem.path("type").asText()).isEqualTo(twin.path("type").asText())
                .isEqualTo("urn:problem-type:guard:rate-limited");
        assertThat(problem.path("title").asText()).isEqualTo("Too Many Requests");
        assertThat(problem.path("detail").asText()).isEqualTo("Rate limit 'partner' allows 2 requests per 60s.");
        assertThat(problem.path("instance").asText()).isEqualTo("/partner/orders");
        assertThat(problem.path("violated-policies").path(0).asText()).isEqualTo("partner");

        var stats = context.getBean(RateLimiterRegistry.class).stats("partner");
        assertThat(stats.permitted()).isEqualTo(3);
        assertThat(stats.rejected()).isEqualTo(1);
        assertThat(redis.keys()).anyMatch(key -> key.startsWith(redis.keyPrefix()) && key.contains("{partner:acme}"));
    }

    @Test
    void onlyTheConfiguredMethodsAreLimited() {
        WebTestClient client = client(context);
        for (int i = 0; i < 5; i++) {
            Exchange submitted = Exchange.of(client.post().uri("/partner/orders").header("X-Api-Key", "initech"));
            assertThat(submitted.status()).isEqualTo(200);
            assertThat(submitted.header("RateLimit")).isNull();
        }
        assertThat(partnerGet(client, "initech").status()).isEqualTo(200);
    }

    @Test
    void aStaticResourceIsLimited() {
        WebTestClient client = client(context);
        Exchange first = Exchange.get(client, "/guard-routes/terms.txt");
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.body()).startsWith("Terms of use");
        assertThat(first.header("RateLimit-Policy")).isEqualTo("\"static-files\";q=2;w=60");
        assertThat(Exchange.get(client, "/guard-routes/terms.txt").status()).isEqualTo(200);
        Exchange refused = Exchange.get(client, "/guard-routes/terms.txt");
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.header("Retry-After")).matches(SECONDS_LEFT);
        assertThat(refused.json().path("violated-policies").path(0).asText()).isEqualTo("static-files");
    }

    @Test
    void twoInstancesShareARoutesQuota() {
        try (AnnotationConfigApplicationContext other = startContext()) {
            WebTestClient first = client(context);
            WebTestClient second = client(other);
            assertThat(Exchange.get(first, "/shared").status()).isEqualTo(200);
            assertThat(Exchange.get(second, "/shared").status()).isEqualTo(200);
            assertThat(Exchange.get(first, "/shared").status()).isEqualTo(200);
            Exchange refused = Exchange.get(second, "/shared");
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.header("RateLimit")).matches("\"shared\";r=0;t=" + SECONDS_LEFT);
        }
    }

    private static List<String> headerNames(Exchange exchange) {
        List<String> names = new ArrayList<>();
        exchange.headers().forEach((name, values) -> names.add(name.toLowerCase()));
        return names.stream().filter(name -> !name.equals("content-length")).distinct().toList();
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
