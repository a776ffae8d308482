package io.guard.spring.reliability;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.web.RedisMvcContexts;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * Through the starter, over HTTP: Redis is killed while requests keep coming, then started again. Every request to a
 * FAIL_CLOSED limit during the outage is a 503 problem (never a 500), FAIL_OPEN requests all pass, a LOCAL limit
 * keeps its quota in process, the backend breaker opens, and Redis decides again soon after it is back.
 */
class RedisOutageHttpIT {

    private static final String PROBLEM_TYPE = "urn:problem-type:guard:rate-limit-backend-unavailable";

    @RestController
    static class Payments {
        @GetMapping("/pay")
        @RateLimit(name = "pay", rate = 1000, interval = "1s")
        public String pay() {
            return "paid";
        }

        @GetMapping("/browse")
        @RateLimit(name = "browse", rate = 1000, interval = "1s")
        public String browse() {
            return "browsed";
        }

        @GetMapping("/quote")
        @RateLimit(name = "quote", rate = 3, interval = "60s")
        public String quote() {
            return "quoted";
        }
    }

    @Test
    void duringAnOutageEachPolicyAnswersAsPromisedAndRedisTakesOverAgain() {
        try (DedicatedRedis redis = RedisServers.startDedicated()) {
            RedisMvcContexts.runner(redis.url(), 500, 2000)
                    .withPropertyValues(
                            "guard.rate-limit.instances.pay.on-backend-failure=fail-closed",
                            "guard.rate-limit.instances.browse.on-backend-failure=fail-open",
                            "guard.rate-limit.instances.quote.on-backend-failure=local")
                    .withBean(Payments.class)
                    .run(context -> {
                        MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
                        CircuitBreaker backend = context.getBean(CircuitBreakerRegistry.class)
                                .find("guard-rate-limit-backend").orElseThrow();
                        for (String path : new String[] {"/pay", "/browse", "/quote"}) {
                            assertThat(call(mvc, path).getStatus()).as("%s before the outage", path).isEqualTo(200);
                        }

                        redis.stop();
                        Map<String, Integer> statuses = new TreeMap<>();
                        int quoteAllowed = 0;
                        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
                        int rounds = 0;
                        while (System.nanoTime() < end) {
                            rounds++;
                            MockHttpServletResponse pay = call(mvc, "/pay");
                            statuses.merge("/pay " + pay.getStatus(), 1, Integer::sum);
                            assertThat(pay.getStatus()).as("FAIL_CLOSED during the outage").isEqualTo(503);
                            assertThat(pay.getContentAsString()).contains(PROBLEM_TYPE);
                            MockHttpServletResponse browse = call(mvc, "/browse");
                            statuses.merge("/browse " + browse.getStatus(), 1, Integer::sum);
                            assertThat(browse.getStatus()).as("FAIL_OPEN during the outage").isEqualTo(200);
                            MockHttpServletResponse quote = call(mvc, "/quote");
                            statuses.merge("/quote " + quote.getStatus(), 1, Integer::sum);
                            assertThat(quote.getStatus()).as("LOCAL during the outage").isIn(200, 429);
                            quoteAllowed += quote.getStatus() == 200 ? 1 : 0;
                        }
                        assertThat(quoteAllowed).as("LOCAL admissions in 1.5 s at 3 per minute").isEqualTo(3);
                        assertThat(backend.state()).as("the backend breaker").isEqualTo(State.OPEN);
                        assertThat(backend.notPermittedCalls()).as("calls that skipped Redis")
                                .isGreaterThan(rounds);

                        redis.start();
                        long restarted = System.nanoTime();
                        int status = 0;
                        while (status != 200 && System.nanoTime() - restarted < TimeUnit.SECONDS.toNanos(20)) {
                            status = call(mvc, "/pay").getStatus();
                            Thread.sleep(50);
                        }
                        long backMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restarted);
                        System.out.printf("HTTP outage: %d rounds in 1.5 s, statuses %s, not permitted by the backend "
                                + "breaker %d, FAIL_CLOSED served again %d ms after restart%n", rounds, statuses,
                                backend.notPermittedCalls(), backMillis);
                        assertThat(status).as("FAIL_CLOSED after Redis is back").isEqualTo(200);
                        assertThat(backMillis).as("time until Redis decides again").isLessThan(10_000);
                    });
        }
    }

    private static MockHttpServletResponse call(MockMvc mvc, String path) throws Exception {
        return mvc.perform(get(path)).andReturn().getResponse();
    }
}
