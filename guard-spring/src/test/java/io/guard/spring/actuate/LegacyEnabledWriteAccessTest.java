package io.guard.spring.actuate;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The legacy {@code management.endpoint.guard.enabled=true} grants the write operation on Boot 3.4+; Guard refuses
 * writes granted only that way with a 403 naming the property to set, and honours the access model.
 */
class LegacyEnabledWriteAccessTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class,
                    WebEndpointAutoConfiguration.class, GuardAutoConfiguration.class,
                    GuardEndpointAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local",
                    "management.endpoints.web.exposure.include=guard");

    // Access values upper-case: a bare context runner has no relaxed enum conversion (an application has).
    private static WebEndpointResponse<Object> forceOpen(org.springframework.context.ApplicationContext context) {
        return context.getBean(GuardEndpointWebExtension.class).changeState("payments", "FORCED_OPEN");
    }

    @Test
    void theLegacyEnabledPropertyAloneDoesNotGrantWrites() {
        runner.withPropertyValues("management.endpoint.guard.enabled=true").run(context -> {
            WebEndpointResponse<Object> answer = forceOpen(context);
            assertThat(answer.getStatus()).isEqualTo(403);
            assertThat(((Map<?, ?>) answer.getBody()).get("detail").toString())
                    .contains("management.endpoint.guard.access=unrestricted");
        });
    }

    @Test
    void theLegacyEnabledPropertyAloneDoesNotGrantQuotaResets() {
        runner.withPropertyValues("management.endpoint.guard.enabled=true").run(context -> {
            WebEndpointResponse<Object> answer = context.getBean(GuardEndpointWebExtension.class)
                    .resetQuota("payments", "quota", "user-1");
            assertThat(answer.getStatus()).isEqualTo(403);
            assertThat(((Map<?, ?>) answer.getBody()).get("detail").toString())
                    .contains("management.endpoint.guard.access=unrestricted").contains("quota resets");
            assertThat(((Map<?, ?>) answer.getBody()).get("instance")).isEqualTo("/actuator/guard/payments/quota");
        });
    }

    @Test
    void theAccessModelGrantsWrites() {
        // Granted: the write goes on to look the breaker up (none is named payments here: 404).
        // Boot itself refuses management.endpoint.guard.access together with .enabled.
        runner.withPropertyValues("management.endpoint.guard.access=UNRESTRICTED").run(context ->
                assertThat(forceOpen(context).getStatus()).isEqualTo(404));
        runner.withPropertyValues("management.endpoint.guard.enabled=true",
                "management.endpoints.access.default=UNRESTRICTED").run(context ->
                assertThat(forceOpen(context).getStatus()).isEqualTo(404));
    }
}
