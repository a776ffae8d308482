package io.guard.spring.web;

import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.actuate.GuardMetrics;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.UnknownRateLimitTierException;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.mock.web.MockServletContext;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Tiers end to end on a real Redis: each tier answers with its own {@code RateLimit-Policy}, is counted in a quota of
 * its own per key (its name in the Redis key), and is metered under its own name; a tier that is not configured is
 * the application's error, not the caller's.
 */
@RedisTest
class RateLimitTiersIT {

    private static AnnotationConfigWebApplicationContext context;
    private static RedisEndpoint redis;
    private static MockMvc mvc;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"JacksonAutoConfiguration", "HttpMessageConvertersAutoConfiguration",
            "DispatcherServletAutoConfiguration", "WebMvcAutoConfiguration",
            "DataRedisAutoConfiguration|RedisAutoConfiguration", "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(ApiController.class)
    static class App {
    }

    @RestController
    static class ApiController {
        @GetMapping("/api")
        @RateLimit(name = "api", key = "#client", tier = "#plan")
        public String api(@RequestParam String client, @RequestParam(required = false) String plan) {
            return "ok";
        }

        @GetMapping("/search")
        @RateLimit(name = "search", key = "#client", tier = "#plan")
        public String search(@RequestParam String client, @RequestParam(required = false) String plan) {
            return "found";
        }
    }

    @BeforeAll
    static void start(RedisEndpoint endpoint) {
        redis = endpoint;
        var web = new AnnotationConfigWebApplicationContext();
        web.setServletContext(new MockServletContext());
        context = RedisBacked.start(web, endpoint, c -> c.register(App.class),
                "guard.rate-limit.instances.api.interval=60s",
                "guard.rate-limit.instances.api.tiers.free.rate=2",
                "guard.rate-limit.instances.api.tiers.pro.rate=4",
                "guard.rate-limit.instances.api.tiers.pro.algorithm=token-bucket",
                "guard.rate-limit.instances.search.interval=60s",
                "guard.rate-limit.instances.search.tiers.free.rate=1",
                "guard.rate-limit.instances.search.tiers.pro.rate=3",
                "guard.rate-limit.instances.search.default-tier=free");
        mvc = MockMvcBuilders.webAppContextSetup(context).build();
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @Test
    void eachTierAnswersWithItsOwnPolicyAndQuota() throws Exception {
        var meters = new SimpleMeterRegistry();
        new GuardMetrics(null, context.getBean(RateLimiterRegistry.class)).bindTo(meters);
        for (int i = 0; i < 2; i++) {
            mvc.perform(get("/api").param("client", "hobby").param("plan", "free")).andExpect(status().isOk())
                    .andExpect(header().string(RateLimitHeaders.POLICY, "\"api.free\";q=2;w=60"));
        }
        mvc.perform(get("/api").param("client", "hobby").param("plan", "free"))
                .andExpect(status().isTooManyRequests())
                .andExpect(header().string(RateLimitHeaders.POLICY, "\"api.free\";q=2;w=60"))
                .andExpect(jsonPath("$.violated-policies[0]").value("api.free"));
        for (int i = 0; i < 4; i++) {
            mvc.perform(get("/api").param("client", "acme").param("plan", "PRO")).andExpect(status().isOk())
                    .andExpect(header().string(RateLimitHeaders.POLICY, "\"api.pro\";q=4;w=60"))
                    .andExpect(header().string(RateLimitHeaders.RATE_LIMIT,
                            org.hamcrest.Matchers.startsWith("\"api.pro\";r=" + (3 - i) + ";")));
        }
        mvc.perform(get("/api").param("client", "acme").param("plan", "pro")).andExpect(status().isTooManyRequests());

        assertThat(redis.keys()).anyMatch(key -> key.contains("{api.free:hobby}"))
                .anyMatch(key -> key.contains("{api.pro:acme}"))
                .noneMatch(key -> key.contains("{api:"));
        assertThat(meters.get("guard.ratelimit.requests").tags("name", "api.pro", "result", "permitted").counter()
                .count()).isEqualTo(4);
        assertThat(meters.get("guard.ratelimit.requests").tags("name", "api.free", "result", "rejected").counter()
                .count()).isEqualTo(1);
    }

    /** The documented trade-off: a plan change starts the key on the new tier's quota. */
    @Test
    void aKeyThatChangesTierIsCountedInTheNewTiersQuota() throws Exception {
        mvc.perform(get("/api").param("client", "upgrader").param("plan", "free")).andExpect(status().isOk());
        mvc.perform(get("/api").param("client", "upgrader").param("plan", "free")).andExpect(status().isOk());
        mvc.perform(get("/api").param("client", "upgrader").param("plan", "free"))
                .andExpect(status().isTooManyRequests());
        mvc.perform(get("/api").param("client", "upgrader").param("plan", "pro")).andExpect(status().isOk())
                .andExpect(header().string(RateLimitHeaders.RATE_LIMIT,
                        org.hamcrest.Matchers.startsWith("\"api.pro\";r=3;")));
    }

    @Test
    void aCallWithoutAConfiguredTierTakesTheDefaultTier() throws Exception {
        mvc.perform(get("/search").param("client", "anon")).andExpect(status().isOk())
                .andExpect(header().string(RateLimitHeaders.POLICY, "\"search.free\";q=1;w=60"));
        mvc.perform(get("/search").param("client", "anon").param("plan", "gold"))
                .andExpect(status().isTooManyRequests())
                .andExpect(jsonPath("$.violated-policies[0]").value("search.free"));
    }

    @Test
    void aTierThatIsNotConfiguredIsTheApplicationsErrorNamingLimitMethodAndValue() {
        assertThatThrownBy(() -> mvc.perform(get("/api").param("client", "acme").param("plan", "gold")))
                .rootCause()
                .isInstanceOf(UnknownRateLimitTierException.class)
                .hasMessageContaining("Rate limit 'api' on @RateLimit on ApiController.api(String, String)")
                .hasMessageContaining("'gold', which is not a configured tier");
        assertThat(redis.keys()).noneMatch(key -> key.contains("gold"));
    }
}
