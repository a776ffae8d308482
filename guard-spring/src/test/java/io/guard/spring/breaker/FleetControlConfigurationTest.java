package io.guard.spring.breaker;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.spring.actuate.GuardEndpointAutoConfiguration;
import io.guard.spring.actuate.GuardEndpointWebExtension;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Fleet-wide control as configuration decides it, without Redis: off by default, refused where it cannot work. */
class FleetControlConfigurationTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class,
                    WebEndpointAutoConfiguration.class, GuardAutoConfiguration.class,
                    GuardEndpointAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local", "management.endpoints.web.exposure.include=guard",
                    "management.endpoint.guard.access=UNRESTRICTED");

    @Test
    void isOffByDefaultAndAFleetWideWriteIsThenRefusedNamingThePropertyAndChangesNothing() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(FleetBreakers.class);
            context.getBean(CircuitBreakerRegistry.class).circuitBreaker("payments");

            WebEndpointResponse<Object> answer = context.getBean(GuardEndpointWebExtension.class).changeState(
                    "payments", "FORCED_OPEN", null, null, null, null, "fleet", SecurityContext.NONE);

            assertThat(answer.getStatus()).isEqualTo(400);
            assertThat(((Map<?, ?>) answer.getBody()).get("error").toString())
                    .contains("guard.circuit-breaker.fleet.enabled=true");
            assertThat(context.getBean(CircuitBreakerRegistry.class).circuitBreaker("payments").state())
                    .isEqualTo(State.CLOSED);
        });
    }

    @Test
    void anUnknownScopeIsRefusedAndTheInstanceScopeIsTheDefault() {
        runner.run(context -> {
            context.getBean(CircuitBreakerRegistry.class).circuitBreaker("payments");
            GuardEndpointWebExtension endpoint = context.getBean(GuardEndpointWebExtension.class);

            WebEndpointResponse<Object> unknown = endpoint.changeState("payments", "FORCED_OPEN", null, null, null,
                    null, "everywhere", SecurityContext.NONE);
            WebEndpointResponse<Object> local = endpoint.changeState("payments", "FORCED_OPEN", null, null, null,
                    null, "instance", SecurityContext.NONE);

            assertThat(unknown.getStatus()).isEqualTo(400);
            assertThat(((Map<?, ?>) unknown.getBody()).get("error").toString()).contains("'everywhere'");
            assertThat(local.getStatus()).isEqualTo(200);
            assertThat(context.getBean(CircuitBreakerRegistry.class).circuitBreaker("payments").state())
                    .isEqualTo(State.FORCED_OPEN);
        });
    }

    @Test
    void enabledWithoutRedisStopsStartUpNamingTheProperty() {
        runner.withPropertyValues("guard.circuit-breaker.fleet.enabled=true").run(context ->
                assertThat(context).getFailure().rootCause().hasMessageContaining("guard.circuit-breaker.fleet.enabled")
                        .hasMessageContaining("needs Redis"));
    }

    @Test
    void shareOpenWithoutFleetControlStopsStartUpNamingTheBreaker() {
        runner.withPropertyValues("guard.circuit-breaker.instances.payments.share-open=true").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("guard.circuit-breaker.instances.payments.share-open")
                        .hasMessageContaining("guard.circuit-breaker.fleet.enabled=true"));
    }

    @Test
    void aPollIntervalThatIsNotPositiveStopsStartUpNamingTheProperty() {
        runner.withPropertyValues("guard.circuit-breaker.fleet.poll-interval=0s").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("guard.circuit-breaker.fleet.poll-interval"));
    }
}
