package io.guard.spring.autoconfigure;

import io.guard.spring.autoconfigure.report.StartupReports;
import io.guard.breaker.CircuitBreakerConfig;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.spring.method.GuardedMethods;
import io.guard.spring.web.GuardServletExceptionHandler;
import org.junit.jupiter.api.Test;
import org.springframework.aop.Advisor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import java.io.IOException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class GuardAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class));

    @Test
    void createsTheRegistryTheCatalogAndBothAdvisors() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(CircuitBreakerRegistry.class);
            assertThat(context).hasSingleBean(GuardedMethods.class);
            assertThat(context).hasSingleBean(GuardProperties.class);
            assertThat(context.getBeansOfType(Advisor.class))
                    .containsKeys("guardRateLimitAdvisor", "guardCircuitBreakerAdvisor");
            assertThat(context).doesNotHaveBean(GuardServletExceptionHandler.class);
        });
    }

    @Test
    void turnsEverythingOffWhenDisabled() {
        runner.withPropertyValues("guard.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(CircuitBreakerRegistry.class);
            assertThat(context).doesNotHaveBean(GuardedMethods.class);
            assertThat(context).doesNotHaveBean(GuardProperties.class);
            assertThat(context.getBeansOfType(Advisor.class)).doesNotContainKeys("guardRateLimitAdvisor");
        });
    }

    @Test
    void backsOffWhenTheUserDefinesTheBreakerRegistry() {
        CircuitBreakerRegistry own = CircuitBreakerRegistry.ofDefaults();
        runner.withBean(CircuitBreakerRegistry.class, () -> own).run(context ->
                assertThat(context.getBean(CircuitBreakerRegistry.class)).isSameAs(own));
    }

    @Test
    void bindsEveryBreakerPropertyOverTheDefaults() {
        runner.withPropertyValues(
                "guard.circuit-breaker.defaults.failure-rate-threshold=25",
                "guard.circuit-breaker.defaults.wait-duration-in-open-state=10s",
                "guard.circuit-breaker.instances.payment.slow-call-rate-threshold=80",
                "guard.circuit-breaker.instances.payment.slow-call-duration-threshold=2s",
                "guard.circuit-breaker.instances.payment.sliding-window-type=time-based",
                "guard.circuit-breaker.instances.payment.sliding-window-size=30",
                "guard.circuit-breaker.instances.payment.minimum-number-of-calls=5",
                "guard.circuit-breaker.instances.payment.permitted-number-of-calls-in-half-open-state=2",
                "guard.circuit-breaker.instances.payment.exponential-backoff-multiplier=2",
                "guard.circuit-breaker.instances.payment.exponential-max-wait-duration-in-open-state=5m",
                "guard.circuit-breaker.instances.payment.automatic-transition-from-open-to-half-open-enabled=true",
                "guard.circuit-breaker.instances.payment.max-wait-duration-in-half-open-state=20s",
                "guard.circuit-breaker.instances.payment.record-exceptions=java.io.IOException",
                "guard.circuit-breaker.instances.payment.ignore-exceptions=java.lang.IllegalArgumentException",
                "guard.circuit-breaker.instances.payment.health-fails-when-open=true").run(context -> {
            CircuitBreakerRegistry registry = context.getBean(CircuitBreakerRegistry.class);
            CircuitBreakerConfig payment = registry.configFor("payment");
            assertThat(payment.failureRateThreshold()).isEqualTo(25f);
            assertThat(payment.waitDurationInOpenState()).isEqualTo(Duration.ofSeconds(10));
            assertThat(payment.slowCallRateThreshold()).isEqualTo(80f);
            assertThat(payment.slowCallDurationThreshold()).isEqualTo(Duration.ofSeconds(2));
            assertThat(payment.slidingWindowType()).isEqualTo(CircuitBreakerConfig.SlidingWindowType.TIME_BASED);
            assertThat(payment.slidingWindowSize()).isEqualTo(30);
            assertThat(payment.minimumNumberOfCalls()).isEqualTo(5);
            assertThat(payment.permittedNumberOfCallsInHalfOpenState()).isEqualTo(2);
            assertThat(payment.exponentialBackoffMultiplier()).isEqualTo(2.0);
            assertThat(payment.exponentialMaxWaitDurationInOpenState()).isEqualTo(Duration.ofMinutes(5));
            assertThat(payment.automaticTransitionFromOpenToHalfOpenEnabled()).isTrue();
            assertThat(payment.maxWaitDurationInHalfOpenState()).isEqualTo(Duration.ofSeconds(20));
            assertThat(payment.recordExceptions()).contains(IOException.class);
            assertThat(payment.ignoreExceptions()).containsExactly(IllegalArgumentException.class);
            assertThat(registry.configFor("other").failureRateThreshold()).isEqualTo(25f);
            assertThat(registry.configFor("other").slowCallRateThreshold()).isEqualTo(100f);

            CircuitBreakerProperties properties = context.getBean(GuardProperties.class).getCircuitBreaker();
            assertThat(properties.healthFailsWhenOpen("payment")).isTrue();
            assertThat(properties.healthFailsWhenOpen("other")).isFalse();
        });
    }

    @Test
    void aBreakerPropertyOutOfRangeStopsStartUpNamingTheBreaker() {
        runner.withPropertyValues("guard.circuit-breaker.instances.payment.failure-rate-threshold=150")
                .run(context -> {
                    assertThat(context).hasFailed();
                    var analysis = StartupReports.ofProperties(context.getStartupFailure());
                    assertThat(analysis.getDescription()).startsWith("guard.circuit-breaker.instances.payment"
                            + ".failure-rate-threshold=150: failure-rate-threshold must be in (0, 100] but was 150.0");
                });
    }

    @Test
    void addsTheMvcAnswersInServletApplications() {
        new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
                .run(context -> assertThat(context).hasSingleBean(GuardServletExceptionHandler.class));
    }
}
