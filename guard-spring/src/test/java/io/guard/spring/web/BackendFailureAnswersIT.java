package io.guard.spring.web;

import io.guard.spring.annotation.RateLimit;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * When Redis is gone, each limit's on-backend-failure decides: FAIL_CLOSED answers 503, FAIL_OPEN lets calls in,
 * and an answer FAIL_OPEN gave claims no quota: its policy is listed, but no {@code RateLimit} member says what is
 * left, as nothing was counted.
 */
class BackendFailureAnswersIT {

    private static final String BALANCE_POLICY = "\"balance\";q=10;w=1";

    @RestController
    static class Ledger {
        @GetMapping("/transfer")
        @RateLimit(name = "transfer", rate = 10, interval = "1s")
        public String transfer() {
            return "transferred";
        }

        @GetMapping("/balance")
        @RateLimit(name = "balance", rate = 10, interval = "1s")
        public String balance() {
            return "balance";
        }
    }

    @RestController
    static class ReactiveLedger {
        @GetMapping("/balance")
        @RateLimit(name = "balance", rate = 10, interval = "1s")
        public Mono<String> balance() {
            return Mono.just("balance");
        }
    }

    @Test
    void failClosedAnswers503AndFailOpenLetsCallsThroughClaimingNoQuota() {
        try (DedicatedRedis redis = RedisServers.startDedicated()) {
            RedisMvcContexts.runner(redis.url(), 1000, 5000)
                    .withPropertyValues(
                            "guard.rate-limit.instances.transfer.on-backend-failure=fail-closed",
                            "guard.rate-limit.instances.balance.on-backend-failure=fail-open")
                    .withBean(Ledger.class)
                    .run(context -> {
                        MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
                        mvc.perform(get("/transfer")).andExpect(status().isOk());
                        mvc.perform(get("/balance")).andExpect(status().isOk())
                                .andExpect(header().string(RateLimitHeaders.POLICY, BALANCE_POLICY))
                                .andExpect(header().string(RateLimitHeaders.RATE_LIMIT, "\"balance\";r=9;t=1"));
                        redis.stop();
                        for (int i = 0; i < 4; i++) {
                            mvc.perform(get("/transfer"))
                                    .andExpect(status().isServiceUnavailable())
                                    .andExpect(jsonPath("$.type")
                                            .value("urn:problem-type:guard:rate-limit-backend-unavailable"));
                            mvc.perform(get("/balance"))
                                    .andExpect(status().isOk())
                                    .andExpect(content().string("balance"))
                                    .andExpect(header().string(RateLimitHeaders.POLICY, BALANCE_POLICY))
                                    .andExpect(header().doesNotExist(RateLimitHeaders.RATE_LIMIT));
                        }
                    });
        }
    }

    @Test
    void onWebFluxFailOpenAnswersClaimNoQuotaEither() {
        try (DedicatedRedis redis = RedisServers.startDedicated()) {
            RedisMvcContexts.webFluxRunner(redis.url(), 1000, 5000)
                    .withPropertyValues("guard.rate-limit.instances.balance.on-backend-failure=fail-open")
                    .withBean(ReactiveLedger.class)
                    .run(context -> {
                        WebTestClient client = WebTestClient.bindToApplicationContext(context).build();
                        Exchange counted = Exchange.get(client, "/balance");
                        assertThat(counted.status()).isEqualTo(200);
                        assertThat(counted.header(RateLimitHeaders.RATE_LIMIT)).isEqualTo("\"balance\";r=9;t=1");
                        redis.stop();
                        for (int i = 0; i < 4; i++) {
                            Exchange uncounted = Exchange.get(client, "/balance");
                            assertThat(uncounted.status()).isEqualTo(200);
                            assertThat(uncounted.body()).isEqualTo("balance");
                            assertThat(uncounted.header(RateLimitHeaders.POLICY)).isEqualTo(BALANCE_POLICY);
                            assertThat(uncounted.header(RateLimitHeaders.RATE_LIMIT))
                                    .as("no RateLimit field: nothing was counted").isNull();
                        }
                    });
        }
    }
}
