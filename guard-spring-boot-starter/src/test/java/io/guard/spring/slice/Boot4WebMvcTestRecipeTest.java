package io.guard.spring.slice;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The {@code @WebMvcTest} recipe of docs/annotations.md, word for word, on Boot 4: with it a limited controller
 * answers 429 in the slice. (Boot 3.5 has its own copy: {@code @WebMvcTest} lives in another package there.)
 */
@WebMvcTest(Boot4WebMvcTestRecipeTest.OrderController.class)
@ImportAutoConfiguration({AopAutoConfiguration.class, GuardAutoConfiguration.class})
@TestPropertySource(properties = "guard.rate-limit.backend=local")
class Boot4WebMvcTestRecipeTest {

    @SpringBootConfiguration
    @Import(OrderController.class)
    static class App {
    }

    @RestController
    static class OrderController {
        @PostMapping("/orders")
        @RateLimit(name = "orders", rate = 1, interval = "60s")
        public String order() {
            return "ordered";
        }
    }

    @Autowired
    MockMvc mvc;

    @Test
    void theSecondCallWithinTheIntervalAnswers429() throws Exception {
        mvc.perform(post("/orders")).andExpect(status().isOk());
        mvc.perform(post("/orders"))
                .andExpect(status().isTooManyRequests())
                .andExpect(header().exists("Retry-After"))
                .andExpect(jsonPath("$.violated-policies[0]").value("orders"));
    }
}
