package io.guard.spring.gateway.autoconfigure;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.gateway.GuardGatewayRateLimiter;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.gateway.filter.ratelimit.RateLimiter;

import static org.assertj.core.api.Assertions.assertThat;

/** When Guard takes the gateway's {@code RequestRateLimiter} filter, and when it stays out of the way. */
class GuardGatewayAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class,
                    GuardGatewayAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local");

    @Test
    void guardBecomesThePrimaryGatewayRateLimiterWhenTheGatewayIsPresent() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(GuardGatewayRateLimiter.class);
            assertThat(context.getBean(RateLimiter.class)).isSameAs(context.getBean(
                    GuardGatewayAutoConfiguration.RATE_LIMITER_BEAN));
        });
    }

    @Test
    void backsOffWithoutSpringCloudGateway() {
        runner.withClassLoader(new FilteredClassLoader(RateLimiter.class))
                .run(context -> assertThat(context).hasNotFailed()
                        .doesNotHaveBean(GuardGatewayAutoConfiguration.RATE_LIMITER_BEAN));
    }

    @Test
    void backsOffWhenGuardIsDisabled() {
        runner.withPropertyValues("guard.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(GuardGatewayRateLimiter.class));
    }
}
