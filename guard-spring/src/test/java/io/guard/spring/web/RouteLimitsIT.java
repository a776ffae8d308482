package io.guard.spring.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.annotation.RateLimit;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.client.MockMvcWebTestClient;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.filter.ForwardedHeaderFilter;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Limits by URL pattern on a real Redis, on Spring MVC and on WebFlux: a controller without annotations and a static
 * resource are limited by configuration alone (on WebFlux decided without blocking), and a refusal answers exactly
 * like a refused {@code @RateLimit} handler. MVC requests go through MockMvc with the servlet filters an application
 * server would run, in their order; WebFlux requests through the application's {@code WebHandler}.
 */
@RedisTest
class RouteLimitsIT {

    private static final String[] SHARED_ROUTES = {
            "guard.rate-limit.instances.partner.rate=2", "guard.rate-limit.instances.partner.interval=60s",
            "guard.rate-limit.routes[0].name=partner", "guard.rate-limit.routes[0].paths[0]=/partner/**",
            "guard.rate-limit.routes[0].methods[0]=GET",
            "guard.rate-limit.instances.static-files.rate=2", "guard.rate-limit.instances.static-files.interval=60s",
            "guard.rate-limit.routes[1].name=static-files", "guard.rate-limit.routes[1].paths[0]=/guard-routes/*.txt",
            "guard.rate-limit.instances.shared.rate=3", "guard.rate-limit.instances.shared.interval=60s",
            "guard.rate-limit.routes[2].name=shared", "guard.rate-limit.routes[2].paths[0]=/shared"};

    /** Seconds left of the 60 s window, allowing a loaded machine up to 20 s between the first request and this one. */
    private static final String SECONDS_LEFT = "(4\\d|5\\d|60)";

    private static final Map<Server, ConfigurableApplicationContext> CONTEXTS = new EnumMap<>(Server.class);
    private static RedisEndpoint redis;

    /** The two web stacks, each with the key expressions its request variables offer. */
    enum Server {
        MVC(new String[]{"guard.rate-limit.routes[0].key=#headers['X-Api-Key']",
                "guard.rate-limit.routes[1].key=#clientIp"}) {
            @Override
            ConfigurableApplicationContext start() {
                return RouteStacks.MVC.start(redis, MvcPartnerController.class, routes());
            }

            @Override
            WebTestClient client(ConfigurableApplicationContext context) {
                return RouteStacks.MVC.client(context);
            }
        },
        WEBFLUX(new String[]{"guard.rate-limit.routes[0].key=#request.header('X-Api-Key')"}) {
            @Override
            ConfigurableApplicationContext start() {
                return RouteStacks.WEBFLUX.start(redis, WebFluxPartnerController.class, routes());
            }

            @Override
            WebTestClient client(ConfigurableApplicationContext context) {
                return RouteStacks.WEBFLUX.client(context);
            }
        };

        private final String[] keys;

        Server(String[] keys) {
            this.keys = keys;
        }

        /** The routes, and a key prefix of this server's own: both servers count the same limit names. */
        String[] routes() {
            List<String> all = new ArrayList<>(List.of(SHARED_ROUTES));
            all.addAll(List.of(keys));
            all.add("guard.rate-limit.key-prefix=" + redis.keyPrefix() + name().toLowerCase() + ":");
            return all.toArray(String[]::new);
        }

        abstract ConfigurableApplicationContext start();

        abstract WebTestClient client(ConfigurableApplicationContext context);
    }

    /** A controller the application cannot annotate (think: from a library), and one annotated twin to compare. */
    @RestController
    static class MvcPartnerController {
        @GetMapping("/partner/orders")
        public String orders() {
            return "orders";
        }

        @PostMapping("/partner/orders")
        public String submit() {
            return "submitted";
        }

        @GetMapping("/shared")
        public String shared() {
            return "shared";
        }

        @GetMapping("/annotated")
        @RateLimit(name = "annotated", rate = 2, interval = "60s")
        public String annotated() {
            return "annotated";
        }
    }

    /** The same controller, reactive. */
    @RestController
    static class WebFluxPartnerController {
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
        for (Server server : Server.values()) {
            CONTEXTS.put(server, server.start());
        }
    }

    @AfterAll
    static void stop() {
        CONTEXTS.values().forEach(ConfigurableApplicationContext::close);
    }

    private static Exchange partnerGet(WebTestClient client, String apiKey) {
        return Exchange.of(client.get().uri("/partner/orders").header("X-Api-Key", apiKey));
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void aControllerWithoutAnnotationsIsLimitedPerKeyAndRefusedLikeAnAnnotatedOne(Server server) {
        ConfigurableApplicationContext context = CONTEXTS.get(server);
        WebTestClient client = server.client(context);
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
        assertThat(refused.headers().getContentType()).isEqualTo(annotated.headers().getContentType());
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

    @ParameterizedTest
    @EnumSource(Server.class)
    void onlyTheConfiguredMethodsAreLimited(Server server) {
        WebTestClient client = server.client(CONTEXTS.get(server));
        for (int i = 0; i < 5; i++) {
            Exchange submitted = Exchange.of(client.post().uri("/partner/orders").header("X-Api-Key", "initech"));
            assertThat(submitted.status()).isEqualTo(200);
            assertThat(submitted.header("RateLimit")).isNull();
        }
        assertThat(partnerGet(client, "initech").status()).isEqualTo(200);
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void aStaticResourceIsLimited(Server server) {
        WebTestClient client = server.client(CONTEXTS.get(server));
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

    /** Spring MVC only: {@code #clientIp} behind the servlet {@code ForwardedHeaderFilter}. */
    @Test
    void clientIpIsTheForwardedClientsBehindSpringsForwardedHeaderFilter() {
        // Spring Boot registers ForwardedHeaderFilter at the highest precedence (server.forward-headers-strategy=
        // framework); the route filter runs after it, so #clientIp is the address the proxy forwarded.
        var web = (WebApplicationContext) CONTEXTS.get(Server.MVC);
        WebTestClient client = MockMvcWebTestClient.bindTo(MockMvcBuilders.webAppContextSetup(web)
                .addFilters(new ForwardedHeaderFilter(), web.getBean(GuardRouteFilter.class)).build()).build();
        Function<String, Exchange> forwardedFor = address ->
                Exchange.of(client.get().uri("/guard-routes/terms.txt").header("X-Forwarded-For", address));
        for (int i = 0; i < 2; i++) {
            assertThat(forwardedFor.apply("203.0.113.7").status()).isEqualTo(200);
        }
        assertThat(forwardedFor.apply("203.0.113.7").status()).isEqualTo(429);
        assertThat(forwardedFor.apply("198.51.100.9").status()).isEqualTo(200);
        assertThat(redis.keys()).anyMatch(key -> key.contains("{static-files:203.0.113.7}"))
                .anyMatch(key -> key.contains("{static-files:198.51.100.9}"));
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void twoInstancesShareARoutesQuota(Server server) {
        try (ConfigurableApplicationContext other = server.start()) {
            WebTestClient first = server.client(CONTEXTS.get(server));
            WebTestClient second = server.client(other);
            assertThat(Exchange.get(first, "/shared").status()).isEqualTo(200);
            assertThat(Exchange.get(second, "/shared").status()).isEqualTo(200);
            assertThat(Exchange.get(first, "/shared").status()).isEqualTo(200);
            Exchange refused = Exchange.get(second, "/shared");
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.header("RateLimit")).matches("\"shared\";r=0;t=" + SECONDS_LEFT);
        }
    }

    /** Header names of an answer, less Content-Length (set by one stack's test client and not the other's). */
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
