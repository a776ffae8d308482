package io.guard.spring.web;

import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Routes that charge what a request cost, read from the response's {@code X-Usage-Tokens} header
 * ({@code guard.rate-limit.routes[i].cost-header}), on Spring MVC and on WebFlux, two application instances on one
 * Redis each. The bound of docs/cost.md holds across both instances; a response that costs more than the balance puts
 * the key into debt, refusing the next request with the exact {@code Retry-After}; {@code cost-on-failure: none} gives
 * the estimate back when the handler throws ({@link RouteStacks}).
 */
@RedisTest
class RouteCostChargeIT {

    private static final int CALLERS_PER_INSTANCE = 4;
    private static final long RUN_NANOS = TimeUnit.MILLISECONDS.toNanos(2000);
    /** Permits each request of the route takes at admission: the estimate. */
    private static final int ESTIMATE = 3;
    private static final int RATE = 400;
    private static final int BURST = 40;

    private static final String[] ROUTES = {
            // 400 per second, a burst of 40: one permit is worth 2.5 ms.
            "guard.rate-limit.instances.llm.algorithm=token-bucket", "guard.rate-limit.instances.llm.rate=" + RATE,
            "guard.rate-limit.instances.llm.interval=1s", "guard.rate-limit.instances.llm.burst=" + BURST,
            "guard.rate-limit.routes[0].name=llm", "guard.rate-limit.routes[0].paths[0]=/llm/complete",
            "guard.rate-limit.routes[0].key=#request.header('X-Tenant')",
            "guard.rate-limit.routes[0].permits=" + ESTIMATE,
            "guard.rate-limit.routes[0].cost-header=X-Usage-Tokens",
            // 10 per minute: one permit is worth 6 s.
            "guard.rate-limit.instances.llm-minute.algorithm=token-bucket",
            "guard.rate-limit.instances.llm-minute.rate=10", "guard.rate-limit.instances.llm-minute.interval=60s",
            "guard.rate-limit.routes[1].name=llm-minute", "guard.rate-limit.routes[1].paths[0]=/llm/minute",
            "guard.rate-limit.routes[1].key=#request.header('X-Tenant')",
            "guard.rate-limit.routes[1].cost-header=X-Usage-Tokens",
            "guard.rate-limit.instances.llm-failing.algorithm=token-bucket",
            "guard.rate-limit.instances.llm-failing.rate=10", "guard.rate-limit.instances.llm-failing.interval=60s",
            "guard.rate-limit.routes[2].name=llm-failing", "guard.rate-limit.routes[2].paths[0]=/llm/failing",
            "guard.rate-limit.routes[2].key=#request.header('X-Tenant')",
            "guard.rate-limit.routes[2].permits=4",
            "guard.rate-limit.routes[2].cost-header=X-Usage-Tokens",
            "guard.rate-limit.routes[2].cost-on-failure=none"};

    /** Two instances of each web stack. */
    private static final Map<RouteStacks, List<ConfigurableApplicationContext>> CONTEXTS =
            new EnumMap<>(RouteStacks.class);
    private static RedisEndpoint redis;

    /** The routes, with a key prefix per web stack, shared by its two instances. */
    private static String[] properties(RouteStacks server) {
        List<String> all = new ArrayList<>(List.of(ROUTES));
        all.add("guard.rate-limit.key-prefix=" + redis.keyPrefix() + server.name().toLowerCase() + ":");
        return all.toArray(String[]::new);
    }

    private static ConfigurableApplicationContext start(RouteStacks server) {
        return server.start(redis, server == RouteStacks.MVC ? MvcLlmController.class : WebFluxLlmController.class,
                properties(server));
    }

    /** An upstream of a language model, as a proxy sees it: the answer says how many tokens it used. */
    @RestController
    static class MvcLlmController {
        @GetMapping({"/llm/complete", "/llm/minute"})
        public ResponseEntity<String> complete(@RequestParam long tokens) {
            return ResponseEntity.ok().header("X-Usage-Tokens", Long.toString(tokens)).body("done");
        }

        @GetMapping("/llm/failing")
        public String failing() {
            throw new IllegalStateException("the model is down");
        }
    }

    @RestController
    static class WebFluxLlmController {
        @GetMapping({"/llm/complete", "/llm/minute"})
        public Mono<ResponseEntity<String>> complete(@RequestParam long tokens) {
            return Mono.just(ResponseEntity.ok().header("X-Usage-Tokens", Long.toString(tokens)).body("done"));
        }

        @GetMapping("/llm/failing")
        public Mono<String> failing() {
            return Mono.error(new IllegalStateException("the model is down"));
        }
    }

    @BeforeAll
    static void start(RedisEndpoint endpoint) {
        redis = endpoint;
        for (RouteStacks server : RouteStacks.values()) {
            CONTEXTS.put(server, List.of(start(server), start(server)));
        }
    }

    @AfterAll
    static void stop() {
        CONTEXTS.values().forEach(both -> both.forEach(ConfigurableApplicationContext::close));
    }

    private static Exchange call(WebTestClient client, String path, String tenant, long tokens) {
        return Exchange.of(client.get().uri(path + "?tokens=" + tokens).header("X-Tenant", tenant));
    }

    private static Quota quota(ConfigurableApplicationContext context, String limit, String tenant) {
        return context.getBean(RateLimiterRegistry.class).inspect(limit, tenant).toCompletableFuture().join();
    }

    /**
     * Eight callers, four per instance, each request admitted with an estimate of 3 and costing 0 to 20 tokens
     * (a refund when below). Without the charges, the admitted requests would cost about three times the limit.
     */
    @ParameterizedTest
    @EnumSource(RouteStacks.class)
    void twoInstancesNeverChargeMoreThanTheLimitPlusTheUnreservedCostsInFlight(RouteStacks server) throws Exception {
        List<WebTestClient> clients = CONTEXTS.get(server).stream().map(server::client).toList();
        String tenant = "bound-" + server;
        AtomicLong cost = new AtomicLong();
        AtomicLong unreserved = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(2 * CALLERS_PER_INSTANCE);
        long start = System.nanoTime();
        long deadline = start + RUN_NANOS;
        List<Future<Integer>> callers = new ArrayList<>();
        try {
            for (int c = 0; c < 2 * CALLERS_PER_INSTANCE; c++) {
                WebTestClient client = clients.get(c % 2);
                long seed = 11 + c;
                callers.add(pool.submit(() -> calls(client, tenant, new Random(seed), deadline, cost, unreserved)));
            }
            List<Integer> admitted = new ArrayList<>();
            for (Future<Integer> caller : callers) {
                admitted.add(caller.get(60, TimeUnit.SECONDS));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long limit = BURST + (long) Math.ceil(RATE * seconds);
            long bound = limit + 2L * CALLERS_PER_INSTANCE * unreserved.get();
            int total = admitted.stream().mapToInt(Integer::intValue).sum();
            System.out.printf("Route costs after the response (%s), two instances: %d requests cost %d in %.3f s; "
                    + "limit %d, bound %d%n", server, total, cost.get(), seconds, limit, bound);
            assertThat(admitted).as("requests admitted per caller; both instances took part").allMatch(n -> n > 0);
            assertThat(cost.get()).as("cost of the admitted requests in %.3f s; the limit is %d", seconds, limit)
                    .isLessThanOrEqualTo(bound);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One caller until the deadline: admitted requests, each charged before its response arrives. */
    private static int calls(WebTestClient client, String tenant, Random random, long deadline, AtomicLong cost,
                             AtomicLong unreserved) {
        int admitted = 0;
        while (System.nanoTime() < deadline) {
            long tokens = random.nextInt(21);
            Exchange answer = call(client, "/llm/complete", tenant, tokens);
            if (answer.status() == 429) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                continue;
            }
            assertThat(answer.status()).isEqualTo(200);
            admitted++;
            cost.addAndGet(tokens);
            unreserved.accumulateAndGet(tokens - ESTIMATE, Math::max);
        }
        return admitted;
    }

    @ParameterizedTest
    @EnumSource(RouteStacks.class)
    void aResponseThatCostMoreThanTheBalanceRefusesTheNextRequestOnTheOtherInstanceUntilTheDebtIsPaid(
            RouteStacks server) {
        List<ConfigurableApplicationContext> both = CONTEXTS.get(server);
        long start = System.nanoTime();
        assertThat(call(server.client(both.get(0)), "/llm/minute", "debtor", 30).status()).isEqualTo(200);

        Exchange refused = call(server.client(both.get(1)), "/llm/minute", "debtor", 1);

        long elapsed = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertThat(refused.status()).isEqualTo(429);
        // 10 - 1 - 29 = -20: the debt of 20 plus the refused request's 1 permit, at 6 s each.
        assertThat(Long.parseLong(refused.header("Retry-After"))).as("seconds; %d s since the admission", elapsed)
                .isBetween(126 - elapsed - 1, 126L);
        assertThat(quota(both.get(1), "llm-minute", "debtor").debt()).isEqualTo(20);
    }

    @ParameterizedTest
    @EnumSource(RouteStacks.class)
    void costOnFailureNoneGivesTheEstimateBackWhenTheHandlerThrows(RouteStacks server) {
        ConfigurableApplicationContext context = CONTEXTS.get(server).get(0);
        WebTestClient client = server.client(context);
        try {
            Exchange failed = call(client, "/llm/failing", "unlucky", 0);
            assertThat(failed.status()).isEqualTo(500);
        } catch (RuntimeException | AssertionError thrownThroughMockMvc) {
            // MockMvc has no server to answer 500: the handler's exception comes out of the filter chain.
            assertThat(server).isEqualTo(RouteStacks.MVC);
        }

        assertThat(quota(context, "llm-failing", "unlucky").remaining())
                .as("the 4 permits taken at admission were given back").isEqualTo(10);
    }
}
