package io.guard.spring.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two gateway instances in front of one backend, sharing one quota in one Redis: Guard decides SCG's
 * {@code RequestRateLimiter} filter for both, with the route's own key resolver, the IETF header fields, the
 * {@code guard} endpoint and the meters; a shadow-mode route lets everything through but counts the refusals.
 */
@RedisTest
class TwoGatewaysSharedQuotaIT {

    /** Seconds left of the 60 s window, allowing a loaded machine up to 20 s between the first request and this one. */
    private static final String SECONDS_LEFT = "(4\\d|5\\d|60)";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Backend backend;
    private static Gateway a;
    private static Gateway b;

    @BeforeAll
    static void start(RedisEndpoint redis) {
        backend = Backend.start();
        List<String> properties = new ArrayList<>(List.of("spring.data.redis.url=" + redis.url(),
                "guard.rate-limit.key-prefix=" + redis.keyPrefix(), "guard.rate-limit.backend=redis",
                "guard.rate-limit.instances.orders.rate=5", "guard.rate-limit.instances.orders.interval=60s",
                "guard.rate-limit.instances.reports.rate=2", "guard.rate-limit.instances.reports.interval=60s",
                "guard.rate-limit.instances.reports.shadow=true",
                "guard.rate-limit.instances.quotes.rate=10", "guard.rate-limit.instances.quotes.interval=60s",
                "management.endpoint.guard.access=unrestricted"));
        properties.addAll(Gateway.route(0, "orders-route", "/orders/**", backend, "guard.limit=orders"));
        // No guard.limit: the limit is named after the route.
        properties.addAll(Gateway.route(1, "reports", "/reports/**", backend));
        properties.addAll(Gateway.route(2, "quotes", "/quotes/**", backend));
        a = Gateway.start(properties.toArray(String[]::new));
        b = Gateway.start(properties.toArray(String[]::new));
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable closeable : new AutoCloseable[] {a, b, backend}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void twoGatewaysShareOneQuotaAndRefuseLikeScgWithGuardsHeaderFields() {
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (Gateway gateway : List.of(a, a, a, b, b, b)) {
            answers.add(gateway.get("/orders/1", "acme"));
        }

        assertThat(answers).extracting(HttpResponse::statusCode).containsExactly(200, 200, 200, 200, 200, 429);
        HttpResponse<String> first = answers.get(0);
        assertThat(first.body()).isEqualTo("backend /orders/1");
        assertThat(first.headers().firstValue("RateLimit-Policy")).hasValue("\"orders\";q=5;w=60");
        assertThat(first.headers().firstValue("RateLimit")).hasValueSatisfying(
                value -> assertThat(value).matches("\"orders\";r=4;t=" + SECONDS_LEFT));
        assertThat(answers.get(4).headers().firstValue("RateLimit")).hasValueSatisfying(
                value -> assertThat(value).matches("\"orders\";r=0;t=" + SECONDS_LEFT));
        HttpResponse<String> refused = answers.get(5);
        assertThat(refused.body()).isEmpty();
        assertThat(refused.headers().firstValue("Retry-After")).hasValueSatisfying(
                value -> assertThat(value).matches(SECONDS_LEFT));
        assertThat(refused.headers().firstValue("RateLimit-Policy")).hasValue("\"orders\";q=5;w=60");
        assertThat(refused.headers().firstValue("RateLimit")).hasValueSatisfying(
                value -> assertThat(value).matches("\"orders\";r=0;t=" + SECONDS_LEFT));

        // The key is the route's KeyResolver's: another client has its own quota, on either gateway.
        assertThat(a.get("/orders/1", "globex").statusCode()).isEqualTo(200);
        assertThat(b.get("/orders/1", "globex").statusCode()).isEqualTo(200);
        // SCG's own rule for a request its key resolver finds no key for stays SCG's (403 by default).
        assertThat(a.get("/orders/1", null).statusCode()).isEqualTo(403);

        assertThat(counted(a, "orders", "permitted") + counted(b, "orders", "permitted")).isEqualTo(7);
        assertThat(counted(a, "orders", "rejected") + counted(b, "orders", "rejected")).isEqualTo(1);
    }

    @Test
    void theGuardEndpointListsTheGatewayLimitsFromStartUp() throws Exception {
        HttpResponse<String> answer = a.get("/actuator/guard", null);

        assertThat(answer.statusCode()).isEqualTo(200);
        JsonNode limiters = JSON.readTree(answer.body()).path("rateLimiters");
        assertThat(limiters.has("orders")).as(answer.body()).isTrue();
        assertThat(limiters.has("reports")).as(answer.body()).isTrue();
        assertThat(limiters.path("orders").path("policy").path("rate").asLong()).isEqualTo(5);
    }

    @Test
    void aShadowModeRouteLetsEveryRequestThroughButCountsTheRefusals() {
        List<Integer> statuses = new ArrayList<>();
        for (Gateway gateway : List.of(a, b, a, b)) {
            statuses.add(gateway.get("/reports/q3", "acme").statusCode());
        }

        assertThat(statuses).containsExactly(200, 200, 200, 200);
        assertThat(counted(a, "reports", "permitted") + counted(b, "reports", "permitted")).isEqualTo(2);
        assertThat(counted(a, "reports", "rejected") + counted(b, "reports", "rejected")).isEqualTo(2);
    }

    @Test
    void aLiveOverrideSentToOneGatewayLimitsTheRouteOnBoth() throws Exception {
        assertThat(b.get("/quotes/eur", "acme").headers().firstValue("RateLimit-Policy"))
                .hasValue("\"quotes\";q=10;w=60");

        HttpResponse<String> override = a.post("/actuator/guard/quotes", "{\"rate\":1}");
        assertThat(override.statusCode()).as(override.body()).isEqualTo(200);

        // Gateway B hears of it from Redis (a message, else its next poll): each probe uses a key of its own.
        AtomicInteger probe = new AtomicInteger();
        await("gateway B applying the override").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
                .until(() -> b.get("/quotes/eur", "probe-" + probe.getAndIncrement()).headers()
                        .firstValue("RateLimit-Policy").orElse(""), "\"quotes\";q=1;w=60"::equals);
        assertThat(b.get("/quotes/eur", "initech").statusCode()).isEqualTo(200);
        assertThat(b.get("/quotes/eur", "initech").statusCode()).isEqualTo(429);
        assertThat(a.get("/quotes/eur", "initech").statusCode()).isEqualTo(429);
    }

    private static double counted(Gateway gateway, String limit, String result) {
        var counter = gateway.context().getBean(MeterRegistry.class).find("guard.ratelimit.requests")
                .tags("name", limit, "result", result).counter();
        return counter == null ? 0 : counter.count();
    }
}
