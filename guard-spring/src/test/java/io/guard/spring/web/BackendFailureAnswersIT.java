package io.guard.spring.web;

import io.guard.spring.annotation.RateLimit;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** When Redis is gone, each limit's on-backend-failure decides: FAIL_CLOSED answers 503, FAIL_OPEN lets calls in. */
class BackendFailureAnswersIT {

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

    @Test
    void failClosedAnswers503AndFailOpenLetsCallsThrough() {
        try (DedicatedRedis redis = RedisServers.startDedicated()) {
            RedisMvcContexts.runner(redis.url(), 1000, 5000)
                    .withPropertyValues(
                            "guard.rate-limit.instances.transfer.on-backend-failure=fail-closed",
                            "guard.rate-limit.instances.balance.on-backend-failure=fail-open")
                    .withBean(Ledger.class)
                    .run(context -> {
                        MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
                        mvc.perform(get("/transfer")).andExpect(status().isOk());
                        redis.stop();
                        for (int i = 0; i < 4; i++) {
                            mvc.perform(get("/transfer"))
                                    .andExpect(status().isServiceUnavailable())
                                    .andExpect(jsonPath("$.type")
                                            .value("urn:problem-type:guard:rate-limit-backend-unavailable"));
                            mvc.perform(get("/balance"))
                                    .andExpect(status().isOk())
                                    .andExpect(content().string("balance"));
                        }
                    });
        }
    }
}
