package io.guard.spring.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockServletContext;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.RequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.filter.ForwardedHeaderFilter;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Spring MVC, limits by URL pattern on a real Redis: a controller without annotations and a static resource are
 * limited by configuration alone, and a refusal answers exactly like a refused {@code @RateLimit} handler.
 */
@RedisTest
class RouteLimitsMvcIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] ROUTES = {
            "guard.rate-limit.instances.partner.rate=2", "guard.rate-limit.instances.partner.interval=60s",
            "guard.rate-limit.routes[0].name=partner", "guard.rate-limit.routes[0].paths[0]=/partner/**",
            "guard.rate-limit.routes[0].methods[0]=GET", "guard.rate-limit.routes[0].key=#headers['X-Api-Key']",
            "guard.rate-limit.instances.static-files.rate=2", "guard.rate-limit.instances.static-files.interval=60s",
            "guard.rate-limit.routes[1].name=static-files", "guard.rate-limit.routes[1].paths[0]=/guard-routes/*.txt",
            "guard.rate-limit.routes[1].key=#clientIp",
            "guard.rate-limit.instances.shared.rate=3", "guard.rate-limit.instances.shared.interval=60s",
            "guard.rate-limit.routes[2].name=shared", "guard.rate-limit.routes[2].paths[0]=/shared"};

    /** Seconds left of the 60 s window, allowing a loaded machine up to 20 s between the first request and this one. */
    private static final String SECONDS_LEFT = "(4\\d|5\\d|60)";

    private static AnnotationConfigWebApplicationContext context;
    private static RedisEndpoint redis;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"JacksonAutoConfiguration", "HttpMessageConvertersAutoConfiguration",
            "DispatcherServletAutoConfiguration", "WebMvcAutoConfiguration",
            "DataRedisAutoConfiguration|RedisAutoConfiguration", "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(PartnerController.class)
    static class Partner {
    }

    /** A controller the application cannot annotate (think: from a library), and one annotated twin to compare. */
    @RestController
    static class PartnerController {
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

    @BeforeAll
    static void start(RedisEndpoint endpoint) {
        redis = endpoint;
        context = startContext();
    }

    private static AnnotationConfigWebApplicationContext startContext() {
        var web = new AnnotationConfigWebApplicationContext();
        web.setServletContext(new MockServletContext());
        return RedisBacked.start(web, redis, c -> c.register(Partner.class), ROUTES);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    /** MockMvc with the servlet filters an application server would run, in their order. */
    private static MockMvc mvc(AnnotationConfigWebApplicationContext context) {
        return MockMvcBuilders.webAppContextSetup(context)
                .addFilters(context.getBean(GuardServletAnswerFilter.class), context.getBean(GuardRouteFilter.class))
                .build();
    }

    private static MockHttpServletResponse perform(MockMvc mvc, RequestBuilder request) throws Exception {
        return mvc.perform(request).andReturn().getResponse();
    }

    @Test
    void aControllerWithoutAnnotationsIsLimitedPerKeyAndRefusedLikeAnAnnotatedOne() throws Exception {
        MockMvc mvc = mvc(context);
        MockHttpServletResponse first = perform(mvc, get("/partner/orders").header("X-Api-Key", "acme"));
        assertThat(first.getStatus()).isEqualTo(200);
        assertThat(first.getContentAsString()).isEqualTo("orders");
        assertThat(first.getHeader("RateLimit-Policy")).isEqualTo("\"partner\";q=2;w=60");
        assertThat(first.getHeader("RateLimit")).matches("\"partner\";r=1;t=" + SECONDS_LEFT);
        assertThat(perform(mvc, get("/partner/orders").header("X-Api-Key", "acme")).getStatus()).isEqualTo(200);
        MockHttpServletResponse refused = perform(mvc, get("/partner/orders").header("X-Api-Key", "acme"));
        assertThat(perform(mvc, get("/partner/orders").header("X-Api-Key", "globex")).getStatus()).isEqualTo(200);

        perform(mvc, get("/annotated"));
        perform(mvc, get("/annotated"));
        MockHttpServletResponse annotated = perform(mvc, get("/annotated"));

        assertThat(refused.getStatus()).isEqualTo(429).isEqualTo(annotated.getStatus());
        assertThat(refused.getContentType()).isEqualTo(annotated.getContentType()).contains("application/problem+json");
        assertThat(refused.getHeader("Retry-After")).matches(SECONDS_LEFT);
        assertThat(refused.getHeader("RateLimit-Policy")).isEqualTo("\"partner\";q=2;w=60");
        assertThat(refused.getHeader("RateLimit")).matches("\"partner\";r=0;t=" + SECONDS_LEFT);
        assertThat(headerNames(refused)).containsExactlyInAnyOrderElementsOf(headerNames(annotated));
        JsonNode problem = JSON.readTree(refused.getContentAsString());
        JsonNode twin = JSON.readTree(annotated.getContentAsString());
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
    void onlyTheConfiguredMethodsAreLimited() throws Exception {
        MockMvc mvc = mvc(context);
        for (int i = 0; i < 5; i++) {
            MockHttpServletResponse submitted = perform(mvc, post("/partner/orders").header("X-Api-Key", "initech"));
            assertThat(submitted.getStatus()).isEqualTo(200);
            assertThat(submitted.getHeader("RateLimit")).isNull();
        }
        assertThat(perform(mvc, get("/partner/orders").header("X-Api-Key", "initech")).getStatus()).isEqualTo(200);
    }

    @Test
    void aStaticResourceIsLimited() throws Exception {
        MockMvc mvc = mvc(context);
        MockHttpServletResponse first = perform(mvc, get("/guard-routes/terms.txt"));
        assertThat(first.getStatus()).isEqualTo(200);
        assertThat(first.getContentAsString()).startsWith("Terms of use");
        assertThat(first.getHeader("RateLimit-Policy")).isEqualTo("\"static-files\";q=2;w=60");
        assertThat(perform(mvc, get("/guard-routes/terms.txt")).getStatus()).isEqualTo(200);
        MockHttpServletResponse refused = perform(mvc, get("/guard-routes/terms.txt"));
        assertThat(refused.getStatus()).isEqualTo(429);
        assertThat(refused.getHeader("Retry-After")).matches(SECONDS_LEFT);
        assertThat(JSON.readTree(refused.getContentAsString()).path("violated-policies").path(0).asText())
                .isEqualTo("static-files");
    }

    @Test
    void clientIpIsTheForwardedClientsBehindSpringsForwardedHeaderFilter() throws Exception {
        // Spring Boot registers ForwardedHeaderFilter at the highest precedence (server.forward-headers-strategy=
        // framework); the route filter runs after it, so #clientIp is the address the proxy forwarded.
        MockMvc mvc = MockMvcBuilders.webAppContextSetup(context)
                .addFilters(new ForwardedHeaderFilter(), context.getBean(GuardRouteFilter.class)).build();
        for (int i = 0; i < 2; i++) {
            assertThat(perform(mvc, get("/guard-routes/terms.txt").header("X-Forwarded-For", "203.0.113.7"))
                    .getStatus()).isEqualTo(200);
        }
        assertThat(perform(mvc, get("/guard-routes/terms.txt").header("X-Forwarded-For", "203.0.113.7"))
                .getStatus()).isEqualTo(429);
        assertThat(perform(mvc, get("/guard-routes/terms.txt").header("X-Forwarded-For", "198.51.100.9"))
                .getStatus()).isEqualTo(200);
        assertThat(redis.keys()).anyMatch(key -> key.contains("{static-files:203.0.113.7}"))
                .anyMatch(key -> key.contains("{static-files:198.51.100.9}"));
    }

    @Test
    void twoInstancesShareARoutesQuota() throws Exception {
        try (AnnotationConfigWebApplicationContext other = startContext()) {
            MockMvc first = mvc(context);
            MockMvc second = mvc(other);
            assertThat(perform(first, get("/shared")).getStatus()).isEqualTo(200);
            assertThat(perform(second, get("/shared")).getStatus()).isEqualTo(200);
            assertThat(perform(first, get("/shared")).getStatus()).isEqualTo(200);
            MockHttpServletResponse refused = perform(second, get("/shared"));
            assertThat(refused.getStatus()).isEqualTo(429);
            assertThat(refused.getHeader("RateLimit")).matches("\"shared\";r=0;t=" + SECONDS_LEFT);
        }
    }

    private static List<String> headerNames(MockHttpServletResponse response) {
        return response.getHeaderNames().stream().map(String::toLowerCase).distinct().toList();
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
