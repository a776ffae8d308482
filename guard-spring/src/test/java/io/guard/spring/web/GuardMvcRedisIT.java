package io.guard.spring.web;

import io.guard.spring.test.ImportAutoConfigs;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import io.guard.breaker.CallNotPermittedException;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.mock.web.MockServletContext;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.matchesPattern;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.asyncDispatch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Spring MVC end to end on a real Redis: the limits are counted by the Lua scripts, the answers are HTTP. */
@RedisTest
class GuardMvcRedisIT {

    private static AnnotationConfigWebApplicationContext context;
    private static RedisEndpoint redis;
    private MockMvc mvc;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"JacksonAutoConfiguration", "HttpMessageConvertersAutoConfiguration",
            "DispatcherServletAutoConfiguration", "WebMvcAutoConfiguration",
            "DataRedisAutoConfiguration|RedisAutoConfiguration", "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(ShopController.class)
    static class Shop {
    }

    @BeforeAll
    static void start(RedisEndpoint endpoint) {
        redis = endpoint;
        var web = new AnnotationConfigWebApplicationContext();
        web.setServletContext(new MockServletContext());
        context = RedisBacked.start(web, endpoint, c -> c.register(Shop.class),
                "guard.circuit-breaker.defaults.minimum-number-of-calls=2",
                "guard.circuit-breaker.defaults.sliding-window-size=2",
                "guard.circuit-breaker.defaults.wait-duration-in-open-state=30s");
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @BeforeEach
    void mockMvc() {
        mvc = MockMvcBuilders.webAppContextSetup(context).build();
    }

    @RestController
    static class ShopController {
        @PostMapping("/orders")
        @RateLimit(name = "order-submit", key = "#userId", rate = 2, interval = "60s")
        public String submit(@RequestParam String userId) {
            return "accepted " + userId;
        }

        @GetMapping("/catalog")
        @RateLimit(name = "catalog", rate = 3, interval = "60s")
        public String catalog() {
            return "catalog";
        }

        @GetMapping("/search")
        @RateLimit(name = "search-global", rate = 3, interval = "60s")
        @RateLimit(name = "search-user", key = "#userId", rate = 1, interval = "60s")
        public String search(@RequestParam String userId) {
            return "results";
        }

        @GetMapping("/stock/{sku}")
        @CircuitBreaker(name = "stock", fallbackMethod = "stockFallback")
        public String stock(@PathVariable String sku) throws IOException {
            return switch (sku) {
                case "missing" -> throw new FileNotFoundException(sku);
                case "down" -> throw new ConnectException("inventory down");
                default -> "live " + sku;
            };
        }

        @SuppressWarnings("unused")
        private String stockFallback(String sku, FileNotFoundException e) {
            return "no such sku";
        }

        @SuppressWarnings("unused")
        private String stockFallback(String sku, IOException e) {
            return "cached " + sku;
        }

        @SuppressWarnings("unused")
        private String stockFallback(CallNotPermittedException e) {
            return "breaker " + e.breakerName() + " is " + e.state();
        }

        @GetMapping("/health-check")
        @CircuitBreaker(name = "status", recordResult = "#result == 'DOWN'")
        public String status(@RequestParam String answer) {
            return answer;
        }

        @GetMapping("/quote")
        @RateLimit(name = "quote", rate = 1, interval = "60s")
        @CircuitBreaker(name = "quote-breaker")
        public CompletableFuture<String> quote() {
            return CompletableFuture.supplyAsync(() -> "quote");
        }

        @GetMapping("/payment")
        @CircuitBreaker(name = "payment")
        public String payment() {
            throw new IllegalStateException("payment provider down");
        }
    }

    @Test
    void perUserLimitsInRedisWithFieldsOnSuccessAndA429ProblemWhenRefused() throws Exception {
        assertThat(context.getBean(RateLimiter.class)).isInstanceOf(FailoverRateLimiter.class);
        mvc.perform(post("/orders").param("userId", "alice"))
                .andExpect(status().isOk())
                .andExpect(header().string("RateLimit-Policy", "\"order-submit\";q=2;w=60"))
                .andExpect(header().string("RateLimit", matchesPattern("\"order-submit\";r=1;t=(59|60)")));
        mvc.perform(post("/orders").param("userId", "alice")).andExpect(status().isOk())
                .andExpect(header().string("RateLimit", matchesPattern("\"order-submit\";r=0;t=(59|60)")));
        mvc.perform(post("/orders").param("userId", "alice"))
                .andExpect(status().isTooManyRequests())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(header().string("Retry-After", matchesPattern("59|60")))
                .andExpect(header().string("RateLimit-Policy", "\"order-submit\";q=2;w=60"))
                .andExpect(header().string("RateLimit", matchesPattern("\"order-submit\";r=0;t=(59|60)")))
                .andExpect(jsonPath("$.type").value("urn:problem-type:guard:rate-limited"))
                .andExpect(jsonPath("$.title").value("Too Many Requests"))
                .andExpect(jsonPath("$.status").value(429))
                .andExpect(jsonPath("$.detail").value("Rate limit 'order-submit' allows 2 requests per 60s."))
                .andExpect(jsonPath("$.instance").value("/orders"))
                .andExpect(jsonPath("$.violated-policies[0]").value("order-submit"));
        mvc.perform(post("/orders").param("userId", "bob")).andExpect(status().isOk());

        assertThat(redis.keys()).isNotEmpty().allMatch(key -> key.startsWith(redis.keyPrefix()));
        assertThat(redis.keys()).anyMatch(key -> key.contains("order-submit"));
        var stats = context.getBean(RateLimiterRegistry.class).stats("order-submit");
        assertThat(stats.permitted()).isEqualTo(3);
        assertThat(stats.rejected()).isEqualTo(1);
    }

    @Test
    void aGlobalKeyIsSharedByEveryCaller() throws Exception {
        for (int i = 0; i < 3; i++) {
            mvc.perform(get("/catalog")).andExpect(status().isOk());
        }
        mvc.perform(get("/catalog")).andExpect(status().isTooManyRequests())
                .andExpect(jsonPath("$.violated-policies[0]").value("catalog"));
    }

    @Test
    void repeatableLimitsAreAllCheckedAndBothAppearInTheFields() throws Exception {
        mvc.perform(get("/search").param("userId", "u1")).andExpect(status().isOk())
                .andExpect(header().string("RateLimit-Policy",
                        "\"search-global\";q=3;w=60, \"search-user\";q=1;w=60"))
                .andExpect(header().string("RateLimit", matchesPattern(
                        "\"search-global\";r=2;t=\\d+, \"search-user\";r=0;t=\\d+")));
        mvc.perform(get("/search").param("userId", "u1")).andExpect(status().isTooManyRequests())
                .andExpect(jsonPath("$.violated-policies[0]").value("search-user"));
        mvc.perform(get("/search").param("userId", "u2")).andExpect(status().isOk());
        // All-or-nothing: u1's refused call spent nothing on search-global, which still has a third permit.
        mvc.perform(get("/search").param("userId", "u3")).andExpect(status().isOk());
        mvc.perform(get("/search").param("userId", "u4")).andExpect(status().isTooManyRequests())
                .andExpect(jsonPath("$.violated-policies[0]").value("search-global"));
    }

    @Test
    void fallbacksByExceptionTypeThenA503WhenTheBreakerOpensWithoutOne() throws Exception {
        mvc.perform(get("/stock/missing")).andExpect(content().string("no such sku"));
        mvc.perform(get("/stock/down")).andExpect(content().string("cached down"));
        mvc.perform(get("/stock/ok")).andExpect(content().string("breaker stock is OPEN"));

        assertThat(org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> mvc.perform(get("/payment")))).hasRootCauseInstanceOf(IllegalStateException.class);
        assertThat(org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> mvc.perform(get("/payment")))).hasRootCauseInstanceOf(IllegalStateException.class);
        mvc.perform(get("/payment"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", matchesPattern("29|30")))
                .andExpect(jsonPath("$.type").value("urn:problem-type:guard:circuit-open"))
                .andExpect(jsonPath("$.circuit-breaker").value("payment"));
    }

    @Test
    void recordResultTurnsAnsweredValuesIntoFailures() throws Exception {
        mvc.perform(get("/health-check").param("answer", "DOWN")).andExpect(content().string("DOWN"));
        mvc.perform(get("/health-check").param("answer", "DOWN")).andExpect(content().string("DOWN"));
        mvc.perform(get("/health-check").param("answer", "UP")).andExpect(status().isServiceUnavailable());
    }

    @Test
    void completionStagesAreLimitedWithoutBlockingAndRefusalsNeverReachTheBreaker() throws Exception {
        MvcResult first = mvc.perform(get("/quote")).andExpect(request().asyncStarted()).andReturn();
        mvc.perform(asyncDispatch(first)).andExpect(status().isOk()).andExpect(content().string("quote"))
                .andExpect(header().string("RateLimit-Policy", "\"quote\";q=1;w=60"));
        for (int i = 0; i < 3; i++) {
            MvcResult refused = mvc.perform(get("/quote")).andReturn();
            mvc.perform(asyncDispatch(refused)).andExpect(status().isTooManyRequests())
                    .andExpect(header().string("Retry-After", matchesPattern("59|60")));
        }
        var breaker = context.getBean(CircuitBreakerRegistry.class).find("quote-breaker").orElseThrow();
        assertThat(breaker.snapshot().calls()).isEqualTo(1);
        assertThat(breaker.snapshot().failedCalls()).isZero();
    }
}
