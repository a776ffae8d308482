package io.guard.spring.actuate;

import io.guard.spring.test.AutoConfigs;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.boot.autoconfigure.GuardHealthAutoConfiguration;
import io.guard.spring.boot.autoconfigure.GuardMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class GuardActuatorAutoConfigurationTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withClassLoader(new FilteredClassLoader("org.redisson"))
            .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class,
                    GuardEndpointAutoConfiguration.class, GuardHealthAutoConfiguration.class,
                    GuardMetricsAutoConfiguration.class, EndpointAutoConfiguration.class,
                    WebEndpointAutoConfiguration.class, AutoConfigs.type("HealthContributorAutoConfiguration"),
                    AutoConfigs.type("HealthEndpointAutoConfiguration"), AutoConfigs.type("MetricsAutoConfiguration"),
                    AutoConfigs.type("SimpleMetricsExportAutoConfiguration"), AutoConfigs.type("CompositeMeterRegistryAutoConfiguration")));

    @Test
    void endpointsAndStreamExistOnlyWhenExposed() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(GuardEndpoint.class).doesNotHaveBean(GuardEventsEndpoint.class)
                    .doesNotHaveBean(GuardEventStream.class);
            assertThat(context).hasBean("guardHealthContributor").hasSingleBean(GuardMetrics.class);
        });
        runner.withPropertyValues("management.endpoints.web.exposure.include=guard,guardevents").run(context ->
                assertThat(context).hasSingleBean(GuardEndpoint.class).hasSingleBean(GuardEndpointWebExtension.class)
                        .hasSingleBean(GuardEventsEndpoint.class).hasSingleBean(GuardEventsEndpointWebExtension.class)
                        .hasSingleBean(GuardEventStream.class)
                        .hasSingleBean(GuardEventStreamMvcController.class)
                        .doesNotHaveBean(GuardEventStreamReactiveController.class));
    }

    @Test
    void theStreamCanBeSwitchedOffWhileTheEndpointStays() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=guardevents",
                "management.endpoint.guardevents.stream.enabled=false").run(context ->
                assertThat(context).hasSingleBean(GuardEventsEndpoint.class).doesNotHaveBean(GuardEventStream.class)
                        .doesNotHaveBean(GuardEventStreamMvcController.class));
    }

    @Test
    void backsOffWhenGuardIsDisabled() {
        runner.withPropertyValues("guard.enabled=false", "management.endpoints.web.exposure.include=*").run(context ->
                assertThat(context).doesNotHaveBean(GuardEndpoint.class).doesNotHaveBean(GuardEventsEndpoint.class)
                        .doesNotHaveBean("guardHealthContributor").doesNotHaveBean(GuardMetrics.class));
    }

    @Test
    void theHealthContributorCanBeDisabled() {
        runner.withPropertyValues("management.health.guard.enabled=false").run(context ->
                assertThat(context).doesNotHaveBean("guardHealthContributor"));
    }

    @Test
    void backsOffWhenTheUserDefinesTheBeans() {
        // The contributor backs off by name, whatever its type: any bean so named replaces it (on both Boot lines).
        Object own = new Object();
        runner.withBean("guardHealthContributor", Object.class, () -> own)
                .withBean(GuardMetrics.class, () -> new GuardMetrics(null, null))
                .run(context -> {
                    assertThat(context.getBean("guardHealthContributor")).isSameAs(own);
                    assertThat(context).hasSingleBean(GuardMetrics.class);
                });
    }

    @Test
    void noMetersWithoutMicrometerOrARegistry() {
        runner.withClassLoader(new FilteredClassLoader("org.redisson", "io.micrometer.core")).run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(GuardMetrics.class));
        new WebApplicationContextRunner().withClassLoader(new FilteredClassLoader("org.redisson"))
                .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class,
                        GuardMetricsAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(MeterRegistry.class)
                        .doesNotHaveBean(GuardMetrics.class));
    }

    @Test
    void bindsBreakersCreatedAfterStartUp() {
        runner.run(context -> {
            var breakers = context.getBean(CircuitBreakerRegistry.class);
            Calls.succeed(breakers.circuitBreaker("late"), 2);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("guard.circuitbreaker.calls").tags("name", "late", "kind", "successful").timer()
                    .count()).isEqualTo(2);
        });
    }
}
