package io.guard.spring.actuate;

import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP answers of a limit override through {@code POST}/{@code DELETE /actuator/guard/{name}} on the in-process
 * backend: bad values are 400s naming the field and value and change nothing, unknown limits are 404s, and the
 * override is this instance's only.
 */
class LimitOverrideWriteTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, EndpointAutoConfiguration.class,
                    WebEndpointAutoConfiguration.class, GuardAutoConfiguration.class,
                    GuardEndpointAutoConfiguration.class))
            .withBean(Orders.class)
            .withPropertyValues("guard.rate-limit.backend=local", "management.endpoints.web.exposure.include=guard",
                    "management.endpoint.guard.access=UNRESTRICTED");

    static class Orders {
        @RateLimit(name = "orders", rate = 5, interval = "1m", algorithm = "TOKEN_BUCKET")
        public String submit() {
            return "ok";
        }
    }

    @Test
    void badValuesAre400sNamingFieldAndValueAndChangeNothing() {
        runner.run(context -> {
            var endpoint = context.getBean(GuardEndpointWebExtension.class);
            assertBadRequest(endpoint.changeState("orders", null, 0L, null, null, null),
                    "Invalid override of rate limit 'orders': rate limiter 'orders': rate must be between 1");
            assertBadRequest(endpoint.changeState("orders", null, null, "ten minutes", null, null),
                    "interval 'ten minutes' is not a duration");
            assertBadRequest(endpoint.changeState("orders", null, null, "500us", null, null),
                    "interval must be at least 1ms");
            assertBadRequest(endpoint.changeState("orders", null, null, null, "LEAKY_BUCKET", null),
                    "algorithm 'LEAKY_BUCKET' is not one of [SLIDING_LOG, TOKEN_BUCKET, FIXED_WINDOW]");
            assertBadRequest(endpoint.changeState("orders", "OPEN", 10L, null, null, null),
                    "Give either 'state' (a breaker) or rate, interval, algorithm, shadow (a limit), not both");
            assertBadRequest(endpoint.changeState("orders", null, null, null, null, null), "Missing 'state'");
            var policy = context.getBean(RateLimiterRegistry.class).find("orders").orElseThrow();
            assertThat(policy.rate()).isEqualTo(5);
            assertThat(policy.interval()).isEqualTo(Duration.ofMinutes(1));
        });
    }

    @Test
    void anUnknownLimitIs404AndNothingIsCreated() {
        runner.run(context -> {
            var endpoint = context.getBean(GuardEndpointWebExtension.class);
            WebEndpointResponse<Object> answer = endpoint.changeState("ghost", null, 10L, null, null, null);
            assertThat(answer.getStatus()).isEqualTo(404);
            assertThat(answer.getBody()).isEqualTo(Map.of("error", "No rate limit named 'ghost'"));
            assertThat(endpoint.removeOverride("ghost").getStatus()).isEqualTo(404);
            assertThat(context.getBean(RateLimiterRegistry.class).find("ghost")).isEmpty();
        });
    }

    @Test
    void anOverrideOnTheInProcessBackendIsThisInstancesOnlyAndDeletingItRestoresConfiguration() {
        runner.run(context -> {
            var endpoint = context.getBean(GuardEndpointWebExtension.class);
            WebEndpointResponse<Object> answer = endpoint.changeState("orders", null, 8L, "30s", "sliding-log", null);
            assertThat(answer.getStatus()).isEqualTo(200);
            assertThat(answer.getBody()).isInstanceOfSatisfying(RateLimiterDescriptor.class, limiter -> {
                assertThat(limiter.policy()).extracting(p -> p.rate(), p -> p.intervalMs(), p -> p.algorithm())
                        .containsExactly(8L, 30_000L, "SLIDING_LOG");
                assertThat(limiter.source()).isEqualTo("override");
                assertThat(limiter.override().shared()).isFalse();
                assertThat(limiter.override().configured().algorithm()).isEqualTo("TOKEN_BUCKET");
            });

            WebEndpointResponse<Object> removed = endpoint.removeOverride("orders");
            assertThat(removed.getStatus()).isEqualTo(200);
            assertThat(removed.getBody()).isInstanceOfSatisfying(RateLimiterDescriptor.class, limiter -> {
                assertThat(limiter.policy().rate()).isEqualTo(5);
                assertThat(limiter.source()).isEqualTo("configuration");
                assertThat(limiter.override()).isNull();
            });
        });
    }

    private static void assertBadRequest(WebEndpointResponse<Object> answer, String expected) {
        assertThat(answer.getStatus()).isEqualTo(400);
        assertThat(((Map<?, ?>) answer.getBody()).get("error").toString()).contains(expected);
    }
}
