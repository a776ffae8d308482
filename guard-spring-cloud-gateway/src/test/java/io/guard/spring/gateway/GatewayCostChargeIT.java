package io.guard.spring.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.cloud.gateway.filter.ratelimit.KeyResolver;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Gateway routes that charge what a request cost, read from the upstream's {@code X-Usage-Tokens} header
 * ({@code guard.cost-header}), on a real Redis: the charge lands before the client has the answer, a cost beyond the
 * balance refuses the next request with 429 and the exact {@code Retry-After} and shows as {@code debt} in the
 * actuator, {@code guard.strip-cost-header} keeps the header from the client, and {@code cost-on-failure: none} gives
 * the estimate back when the exchange fails (an upstream that refuses connections).
 */
@RedisTest
class GatewayCostChargeIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static DisposableServer upstream;
    private static Gateway gateway;

    @BeforeAll
    static void start(RedisEndpoint redis) throws Exception {
        // A language model's API as a proxy sees it: the answer says how many tokens it used.
        upstream = HttpServer.create().host("127.0.0.1").port(0)
                .route(routes -> routes.get("/{route}/{tokens}", (request, response) -> response
                        .header("X-Usage-Tokens", request.param("tokens")).sendString(Mono.just("completion"))))
                .bindNow();
        Backend llm = new Backend.Fixed("http://127.0.0.1:" + upstream.port());
        Backend closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = new Backend.Fixed("http://127.0.0.1:" + socket.getLocalPort()); // nothing listens there now
        }
        List<String> properties = new ArrayList<>(List.of("spring.data.redis.url=" + redis.url(),
                "guard.rate-limit.key-prefix=" + redis.keyPrefix(), "guard.rate-limit.backend=redis",
                "management.endpoint.guard.access=unrestricted"));
        properties.add("llm.uri=" + llm.uri());
        for (String limit : List.of("llm", "llm-stripped", "llm-failing", "java-llm")) {
            // 10 per minute: one permit is worth 6 s.
            properties.addAll(List.of("guard.rate-limit.instances." + limit + ".algorithm=TOKEN_BUCKET",
                    "guard.rate-limit.instances." + limit + ".rate=10",
                    "guard.rate-limit.instances." + limit + ".interval=60s"));
        }
        properties.addAll(Gateway.route(0, "llm", "/llm/**", llm, "guard.permits=2",
                "guard.cost-header=X-Usage-Tokens"));
        properties.addAll(Gateway.route(1, "llm-stripped", "/llm-stripped/**", llm,
                "guard.cost-header=X-Usage-Tokens", "guard.strip-cost-header=true"));
        properties.addAll(Gateway.route(2, "llm-failing", "/llm-failing/**", closed, "guard.permits=4",
                "guard.cost-header=X-Usage-Tokens", "guard.cost-on-failure=none"));
        gateway = Gateway.start(new Class<?>[] {JavaRoute.class}, properties.toArray(String[]::new));
    }

    /** A route built in Java, whose filter has order 0 like Guard's cost filter: the cost is charged all the same. */
    @Configuration(proxyBeanMethods = false)
    static class JavaRoute {

        @Bean
        RouteLocator javaLlm(RouteLocatorBuilder builder, GuardGatewayRateLimiter guard, KeyResolver apiKeyResolver,
                             @Value("${llm.uri}") String llm) {
            guard.getConfig().put("java-llm", new GuardGatewayRateLimiter.Config().setCostHeader("X-Usage-Tokens"));
            return builder.routes()
                    .route("java-llm", r -> r.path("/java-llm/**")
                            .filters(f -> f.requestRateLimiter(c -> c.setRateLimiter(guard)
                                    .setKeyResolver(apiKeyResolver)))
                            .uri(llm))
                    .build();
        }
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (upstream != null) {
            upstream.disposeNow();
        }
    }

    private static Quota quota(String limit, String key) {
        return gateway.context().getBean(RateLimiterRegistry.class).inspect(limit, key).toCompletableFuture().join();
    }

    private static double charges(String limit, String outcome) {
        var counter = gateway.context().getBean(MeterRegistry.class).find("guard.ratelimit.charges")
                .tags("name", limit, "outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void theUpstreamsCostIsChargedBeforeTheClientHasTheAnswer() {
        HttpResponse<String> answer = gateway.get("/llm/7", "acme");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("completion");
        assertThat(answer.headers().firstValue("X-Usage-Tokens")).as("not stripped on this route").hasValue("7");
        assertThat(quota("llm", "acme").remaining()).as("10 - 7: the estimate of 2 and 5 more").isEqualTo(3);
        assertThat(charges("llm", "in-credit")).isEqualTo(1);
    }

    @Test
    void aCostBeyondTheBalanceRefusesTheNextRequestWithTheExactRetryAfterUntilTheDebtIsPaid() throws Exception {
        long start = System.nanoTime();
        assertThat(gateway.get("/llm/30", "globex").statusCode()).isEqualTo(200);

        HttpResponse<String> refused = gateway.get("/llm/1", "globex");

        long elapsed = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertThat(refused.statusCode()).isEqualTo(429);
        // 10 - 30 = -20: the debt of 20 plus the refused request's 2 permits, at 6 s each.
        assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()))
                .as("seconds; %d s since the admission", elapsed).isBetween(132 - elapsed - 1, 132L);
        HttpResponse<String> shown = gateway.get("/actuator/guard/llm/quota?key=globex", null);
        assertThat(shown.statusCode()).as(shown.body()).isEqualTo(200);
        JsonNode quota = JSON.readTree(shown.body());
        assertThat(quota.path("debt").asLong()).as(shown.body()).isEqualTo(20);
        assertThat(charges("llm", "in-debt")).isEqualTo(1);
    }

    @Test
    void aJavaRouteIsChargedToo() {
        assertThat(gateway.get("/java-llm/8", "acme").statusCode()).isEqualTo(200);

        assertThat(quota("java-llm", "acme").remaining()).as("10 - 8").isEqualTo(2);
    }

    @Test
    void aStrippedCostHeaderIsChargedButNeverReachesTheClient() {
        HttpResponse<String> answer = gateway.get("/llm-stripped/6", "acme");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("X-Usage-Tokens")).isEmpty();
        assertThat(quota("llm-stripped", "acme").remaining()).as("10 - 6").isEqualTo(4);
    }

    @Test
    void costOnFailureNoneGivesTheEstimateBackWhenTheExchangeFails() {
        HttpResponse<String> answer = gateway.get("/llm-failing/3", "acme");

        assertThat(answer.statusCode()).as("the upstream refuses connections").isGreaterThanOrEqualTo(500);
        assertThat(quota("llm-failing", "acme").remaining()).as("the 4 permits were given back").isEqualTo(10);
    }
}
