package io.guard.spring.gateway;

import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A configuration refresh (Spring Cloud's {@code EnvironmentChangeEvent}) of {@code guard.rate-limit.instances.*}
 * reaches the limits that gateway routes use, as it reaches annotated methods and URL-pattern routes: the next
 * request is decided under the new rate, and the route's limit is not taken for one that left the configuration.
 */
@ExtendWith(OutputCaptureExtension.class)
class GatewayRefreshTest {

    @Test
    void aRefreshedRateReachesTheRoutesLimit(CapturedOutput output) {
        try (Backend backend = Backend.start()) {
            List<String> properties = new ArrayList<>(List.of("guard.rate-limit.backend=local",
                    "guard.rate-limit.instances.partner.rate=2", "guard.rate-limit.instances.partner.interval=60s"));
            properties.addAll(Gateway.route(0, "partner-route", "/partner/**", backend, "guard.limit=partner"));
            try (Gateway gateway = Gateway.start(properties.toArray(String[]::new))) {
                assertThat(gateway.get("/partner/a", "acme").statusCode()).isEqualTo(200);
                assertThat(gateway.get("/partner/a", "acme").statusCode()).isEqualTo(200);
                assertThat(gateway.get("/partner/a", "acme").statusCode()).isEqualTo(429);

                refresh(gateway.context(), Map.of("guard.rate-limit.instances.partner.rate", "5"));

                RateLimitPolicy policy = gateway.context().getBean(RateLimiterRegistry.class).find("partner")
                        .orElseThrow();
                assertThat(policy.rate()).isEqualTo(5);
                assertThat(policy.interval()).isEqualTo(Duration.ofSeconds(60));
                for (int i = 0; i < 3; i++) {
                    assertThat(gateway.get("/partner/a", "acme").statusCode()).as("request %s after", i)
                            .isEqualTo(200);
                }
                assertThat(gateway.get("/partner/a", "acme").statusCode()).isEqualTo(429);
                assertThat(output).contains("Rate limit 'partner' reconfigured by refresh")
                        .doesNotContain("Rate limit 'partner' is no longer in the refreshed configuration");
            }
        }
    }

    private static void refresh(ConfigurableApplicationContext context, Map<String, Object> changed) {
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("refreshed", changed));
        context.publishEvent(new EnvironmentChangeEvent(context, Set.copyOf(changed.keySet())));
    }
}
