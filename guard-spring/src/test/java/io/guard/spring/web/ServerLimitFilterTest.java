package io.guard.spring.web;

import io.guard.bulkhead.Bulkhead;
import io.guard.bulkhead.BulkheadRegistry;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The servlet filter of {@code guard.server-limit} with blocking handlers, on a manual clock: a slow answer is a
 * sample that lowers the AIMD limit, a failing request is none, a request beyond the limit gets the 503 problem detail
 * with {@code Retry-After}, and an excluded path passes without a permit.
 */
class ServerLimitFilterTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                    AutoConfigs.type("JacksonAutoConfiguration"),
                    AutoConfigs.type("HttpMessageConvertersAutoConfiguration"),
                    AutoConfigs.type("DispatcherServletAutoConfiguration"),
                    AutoConfigs.type("WebMvcAutoConfiguration"), GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local", "guard.server-limit.enabled=true",
                    "guard.server-limit.adaptive-limit.algorithm=aimd",
                    "guard.server-limit.adaptive-limit.initial-limit=8",
                    "guard.server-limit.adaptive-limit.backoff-ratio=0.5",
                    "guard.server-limit.adaptive-limit.timeout=100ms")
            .withUserConfiguration(Clocked.class)
            .withBean(Handlers.class);

    /** The bulkhead registry on the manual clock the handlers move. */
    @Configuration(proxyBeanMethods = false)
    static class Clocked {
        @Bean
        ManualClock clock() {
            return new ManualClock();
        }

        @Bean
        BulkheadRegistry guardBulkheadRegistry(ManualClock clock) {
            return new BulkheadRegistry(1, Map.of(), 10, clock, 10);
        }
    }

    @RestController
    static class Handlers {
        private final ManualClock clock;

        Handlers(ManualClock clock) {
            this.clock = clock;
        }

        @GetMapping("/work")
        public String work(@RequestParam long millis) {
            clock.advanceMillis(millis);
            return "ok";
        }

        @GetMapping("/fail")
        public String fail() {
            clock.advanceMillis(500);
            throw new IllegalStateException("boom");
        }

        @GetMapping("/actuator/health")
        public String health() {
            return "up";
        }
    }

    @Test
    void aSlowAnswerLowersTheLimitAndAFailureDoesNot() {
        runner.run(context -> {
            MockMvc mvc = FilteredMockMvc.of(context);
            Bulkhead server = context.getBean(BulkheadRegistry.class).find("server").orElseThrow();
            mvc.perform(get("/work").param("millis", "10")).andExpect(status().isOk());
            assertThat(server.maxConcurrentCalls()).isEqualTo(8);
            mvc.perform(get("/work").param("millis", "300")).andExpect(status().isOk());
            assertThat(server.maxConcurrentCalls()).isEqualTo(4);
            assertThatThrownBy(() -> mvc.perform(get("/fail"))).hasRootCauseMessage("boom");
            assertThat(server.maxConcurrentCalls()).isEqualTo(4);
            assertThat(server.concurrentCalls()).isZero();
        });
    }

    @Test
    void aRequestBeyondTheLimitIsRefusedAtOnceWithRetryAfterAndAnExcludedPathPasses() {
        runner.run(context -> {
            MockMvc mvc = FilteredMockMvc.of(context);
            Bulkhead server = context.getBean(BulkheadRegistry.class).find("server").orElseThrow();
            List<Bulkhead.Permit> held = new ArrayList<>();
            for (Bulkhead.Permit p = server.tryAcquire(); p != null; p = server.tryAcquire()) {
                held.add(p);
            }
            long refusedBefore = server.refusedCalls(); // the loop's last tryAcquire was one
            mvc.perform(get("/work").param("millis", "0"))
                    .andExpect(status().isServiceUnavailable())
                    .andExpect(header().string("Retry-After", "1"))
                    .andExpect(jsonPath("$.type").value("urn:problem-type:guard:bulkhead-full"))
                    .andExpect(jsonPath("$.bulkhead").value("server"))
                    .andExpect(jsonPath("$.max-concurrent-calls").value(8));
            mvc.perform(get("/actuator/health")).andExpect(status().isOk());
            assertThat(server.refusedCalls() - refusedBefore).isEqualTo(1);
            held.forEach(Bulkhead.Permit::release);
        });
    }
}
