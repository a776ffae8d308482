package io.guard.spring.web;

import io.guard.spring.test.AutoConfigs;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import static org.hamcrest.Matchers.matchesPattern;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The MVC answers on the in-process backend; {@code GuardMvcRedisIT} repeats the main ones on real Redis. */
class GuardMvcAnswersTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, AutoConfigs.type("JacksonAutoConfiguration"),
                    AutoConfigs.type("HttpMessageConvertersAutoConfiguration"), AutoConfigs.type("DispatcherServletAutoConfiguration"),
                    AutoConfigs.type("WebMvcAutoConfiguration"), GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local",
                    "guard.circuit-breaker.instances.stock.minimum-number-of-calls=1",
                    "guard.circuit-breaker.instances.stock.sliding-window-size=1",
                    "guard.circuit-breaker.instances.stock.wait-duration-in-open-state=30s")
            .withBean(OrderController.class)
            .withBean(CatchAllAdvice.class);

    @RestController
    static class OrderController {
        @PostMapping("/orders")
        @RateLimit(name = "order-submit", key = "#userId", rate = 2, interval = "60s")
        public String submit(@RequestParam(required = false) String userId) {
            return "accepted";
        }

        @PostMapping("/carts")
        @RateLimit(name = "cart", key = "#userId.toUpperCase()", rate = 2, interval = "60s")
        public String cart(@RequestParam(required = false) String userId) {
            return "carted";
        }

        @GetMapping("/stock")
        @CircuitBreaker(name = "stock")
        public String stock() {
            throw new IllegalStateException("inventory down");
        }
    }

    /** An application's catch-all handler, which must not swallow Guard's answers. */
    @RestControllerAdvice
    static class CatchAllAdvice {
        @ExceptionHandler(Exception.class)
        ResponseEntity<String> anything(Exception e) {
            return ResponseEntity.internalServerError().body("catch-all");
        }
    }

    private static MockMvc mvc(org.springframework.web.context.WebApplicationContext context) {
        return MockMvcBuilders.webAppContextSetup(context).build();
    }

    @Test
    void successfulAnswersCarryTheRateLimitFields() {
        runner.run(context -> mvc(context).perform(post("/orders").param("userId", "alice"))
                .andExpect(status().isOk())
                .andExpect(header().string("RateLimit-Policy", "\"order-submit\";q=2;w=60"))
                .andExpect(header().string("RateLimit", matchesPattern("\"order-submit\";r=1;t=(59|60)"))));
    }

    @Test
    void aRefusalIsA429ProblemDetailWithRetryAfterAndTheFields() {
        runner.run(context -> {
            MockMvc mvc = mvc(context);
            mvc.perform(post("/orders").param("userId", "bob")).andExpect(status().isOk());
            mvc.perform(post("/orders").param("userId", "bob")).andExpect(status().isOk());
            mvc.perform(post("/orders").param("userId", "bob"))
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
            mvc.perform(post("/orders").param("userId", "carol")).andExpect(status().isOk());
        });
    }

    @Test
    void aMissingKeyIsA400() {
        runner.run(context -> mvc(context).perform(post("/orders"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value(
                        "Rate limit 'order-submit' needs a key, but '#userId' is null for this call")));
    }

    @Test
    void aKeyExpressionThatCannotBeEvaluatedIsA400LikeAMissingKey() {
        runner.run(context -> {
            MockMvc mvc = mvc(context);
            mvc.perform(post("/carts"))
                    .andExpect(status().isBadRequest())
                    .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                    .andExpect(jsonPath("$.detail").value("Rate limit 'cart' needs a key, but '#userId.toUpperCase()' "
                            + "cannot be evaluated (SpelEvaluationException) for this call"));
            mvc.perform(post("/carts").param("userId", "dave")).andExpect(status().isOk());
        });
    }

    @Test
    void aSharedKeyCanBeConfiguredForMissingKeys() {
        runner.withPropertyValues("guard.rate-limit.missing-key=shared").run(context -> {
            MockMvc mvc = mvc(context);
            mvc.perform(post("/orders")).andExpect(status().isOk());
            mvc.perform(post("/orders")).andExpect(status().isOk());
            mvc.perform(post("/orders")).andExpect(status().isTooManyRequests());
        });
    }

    @Test
    void anOpenBreakerWithoutFallbackIsA503WithTheTimeLeftInOpen() {
        runner.run(context -> {
            MockMvc mvc = mvc(context);
            mvc.perform(get("/stock")).andExpect(status().isInternalServerError())
                    .andExpect(content().string("catch-all"));
            mvc.perform(get("/stock"))
                    .andExpect(status().isServiceUnavailable())
                    .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                    .andExpect(header().string("Retry-After", matchesPattern("29|30")))
                    .andExpect(jsonPath("$.circuit-breaker").value("stock"))
                    .andExpect(jsonPath("$.state").value("OPEN"));
        });
    }
}
