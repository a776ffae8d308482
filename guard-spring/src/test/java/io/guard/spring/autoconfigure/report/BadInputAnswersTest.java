package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import io.guard.spring.annotation.RateLimit;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The rows of the bad-input table in docs/reliability.md that no other test covers: each bad setting stops start-up
 * with a description naming the culprit, and each bad request gets a 4xx problem rather than a 500.
 */
class BadInputAnswersTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local");

    static class TinyInterval {
        @RateLimit(name = "tiny", rate = 5, interval = "500us")
        public String call() {
            return "ok";
        }
    }

    static class NegativeRate {
        @RateLimit(name = "negative", rate = -5)
        public String call() {
            return "ok";
        }
    }

    static class BlankName {
        @RateLimit(name = "  ", rate = 5)
        public String call() {
            return "ok";
        }
    }

    static class ZeroPermits {
        @RateLimit(name = "zero", rate = 5, permits = "0")
        public String call() {
            return "ok";
        }
    }

    static class Configured {
        @RateLimit(name = "configured", rate = 5)
        public String call() {
            return "ok";
        }
    }

    private String annotationFailure(Class<?> beanType) {
        String[] description = new String[1];
        runner.withBean(beanType).run(context -> {
            assertThat(context).hasFailed();
            description[0] = new GuardAnnotationFailureAnalyzer().analyze(context.getStartupFailure()).getDescription();
        });
        return description[0];
    }

    private String propertiesFailure(String... properties) {
        String[] description = new String[1];
        runner.withBean(Configured.class).withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            var analysis = new GuardPropertiesFailureAnalyzer().analyze(context.getStartupFailure());
            description[0] = analysis == null ? rootMessage(context.getStartupFailure()) : analysis.getDescription();
        });
        return description[0];
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    @Test
    void anIntervalBelowOneMillisecondStopsStartUp() {
        assertThat(annotationFailure(TinyInterval.class)).isEqualTo("@RateLimit on TinyInterval.call(): name 'tiny' "
                + "resolves to an invalid limit: rate limiter 'tiny': interval must be at least 1ms but was PT0.0005S");
    }

    @Test
    void aNegativeRateStopsStartUp() {
        assertThat(annotationFailure(NegativeRate.class))
                .isEqualTo("@RateLimit on NegativeRate.call(): rate '-5' must be at least 1 (0 = from configuration)");
    }

    @Test
    void aBlankNameStopsStartUp() {
        assertThat(annotationFailure(BlankName.class)).isEqualTo("@RateLimit on BlankName.call(): name '  ' is empty");
    }

    @Test
    void zeroPermitsStopStartUp() {
        assertThat(annotationFailure(ZeroPermits.class)).isEqualTo("@RateLimit on ZeroPermits.call(): permits '0' is "
                + "more than limit 'zero' can ever grant (between 1 and 5)");
    }

    @Test
    void aNegativeBurstInPropertiesStopsStartUp() {
        assertThat(propertiesFailure("guard.rate-limit.instances.configured.algorithm=token-bucket",
                "guard.rate-limit.instances.configured.burst=-2")).startsWith("guard.rate-limit.instances.configured"
                + ".burst=-2: burst must be at least 1 but was -2");
    }

    @Test
    void anUnknownAlgorithmInPropertiesStopsStartUp() {
        runner.withBean(Configured.class)
                .withPropertyValues("guard.rate-limit.instances.configured.algorithm=leaky-bucket")
                .run(context -> {
                    assertThat(context).hasFailed();
                    StringBuilder chain = new StringBuilder();
                    for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                        chain.append(t.getMessage()).append('\n');
                    }
                    assertThat(chain.toString()).contains(
                            "Failed to bind properties under 'guard.rate-limit.instances.configured.algorithm'",
                            "No enum constant io.guard.ratelimit.Algorithm.leaky-bucket");
                });
    }

    @Test
    void aBreakerWindowOfSizeZeroStopsStartUp() {
        assertThat(propertiesFailure("guard.circuit-breaker.instances.payment.sliding-window-size=0"))
                .startsWith("guard.circuit-breaker.instances.payment.sliding-window-size=0: sliding-window-size must be "
                        + "at least 1 but was 0");
    }

    @Test
    void aKeyPrefixWithBracesStopsStartUp() {
        runner.withPropertyValues("guard.rate-limit.backend=redis", "guard.rate-limit.key-prefix=app{1}:")
                .withBean(RedissonClient.class, () -> Mockito.mock(RedissonClient.class))
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(rootMessage(context.getStartupFailure()))
                            .isEqualTo("Redis key prefix must not contain '{' or '}' but was 'app{1}:'");
                });
    }

    @RestController
    static class Cart {
        @PostMapping("/reserve")
        @RateLimit(name = "reserve", key = "#user", rate = 5, interval = "60s", permits = "#quantity")
        public String reserve(@RequestParam String user, @RequestParam(required = false) String quantity) {
            return "reserved";
        }
    }

    private final WebApplicationContextRunner web = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, AutoConfigs.type("JacksonAutoConfiguration"),
                    AutoConfigs.type("HttpMessageConvertersAutoConfiguration"), AutoConfigs.type("DispatcherServletAutoConfiguration"),
                    AutoConfigs.type("WebMvcAutoConfiguration"), GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local")
            .withBean(Cart.class);

    @Test
    void permitsFromTheRequestThatNoLimitCanGrantAreA400() {
        web.run(context -> {
            MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
            mvc.perform(post("/reserve").param("user", "ann").param("quantity", "5")).andExpect(status().isOk());
            for (String quantity : new String[] {"6", "0", "-1"}) {
                mvc.perform(post("/reserve").param("user", "bob").param("quantity", quantity))
                        .andExpect(status().isBadRequest())
                        .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                        .andExpect(jsonPath("$.type").value("urn:problem-type:guard:rate-limit-permits-invalid"))
                        .andExpect(jsonPath("$.detail").value("Rate limit 'reserve' grants between 1 and 5 permits "
                                + "per call, but '#quantity' is " + quantity + " for this call"))
                        .andExpect(jsonPath("$.violated-policies[0]").value("reserve"));
            }
            mvc.perform(post("/reserve").param("user", "bob"))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.detail").value("Rate limit 'reserve' grants between 1 and 5 permits per "
                            + "call, but '#quantity' is null for this call"));
            mvc.perform(post("/reserve").param("user", "bob").param("quantity", "lots"))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.detail").value("Rate limit 'reserve' grants between 1 and 5 permits per "
                            + "call, but '#quantity' is not a number for this call"));
            // None of the refused requests took a permit: bob still has all five.
            mvc.perform(post("/reserve").param("user", "bob").param("quantity", "5")).andExpect(status().isOk());
        });
    }
}
