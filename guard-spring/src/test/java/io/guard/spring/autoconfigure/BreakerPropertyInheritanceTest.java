package io.guard.spring.autoconfigure;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerConfig;
import io.guard.breaker.CircuitBreakerPermissions;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.spring.breaker.ResultRecordedAsFailureException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Each breaker property inherits from {@code defaults} on its own, and no setting undoes {@code recordResult}. */
class BreakerPropertyInheritanceTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class));

    @Test
    void anInstanceWithALongerWaitKeepsTheDefaultsMultiplierWithoutAnInheritedCap() {
        runner.withPropertyValues(
                "guard.circuit-breaker.defaults.exponential-backoff-multiplier=2",
                "guard.circuit-breaker.instances.payment.wait-duration-in-open-state=120s").run(context -> {
            assertThat(context).hasNotFailed();
            CircuitBreakerConfig payment = context.getBean(CircuitBreakerRegistry.class).configFor("payment");
            assertThat(payment.waitDurationInOpenState()).isEqualTo(Duration.ofSeconds(120));
            assertThat(payment.exponentialBackoffMultiplier()).isEqualTo(2.0);
            assertThat(payment.exponentialMaxWaitDurationInOpenState()).isEqualTo(Duration.ofSeconds(120));
        });
    }

    @Test
    void anInstanceThatOverridesOnlyTheMultiplierKeepsTheDefaultsCap() {
        runner.withPropertyValues(
                "guard.circuit-breaker.defaults.wait-duration-in-open-state=10s",
                "guard.circuit-breaker.defaults.exponential-backoff-multiplier=2",
                "guard.circuit-breaker.defaults.exponential-max-wait-duration-in-open-state=10m",
                "guard.circuit-breaker.instances.payment.exponential-backoff-multiplier=3").run(context -> {
            CircuitBreakerConfig payment = context.getBean(CircuitBreakerRegistry.class).configFor("payment");
            assertThat(payment.exponentialBackoffMultiplier()).isEqualTo(3.0);
            assertThat(payment.exponentialMaxWaitDurationInOpenState()).isEqualTo(Duration.ofMinutes(10));
        });
    }

    @Test
    void anInstanceThatOverridesOnlyTheCapKeepsTheDefaultsMultiplier() {
        runner.withPropertyValues(
                "guard.circuit-breaker.defaults.exponential-backoff-multiplier=2",
                "guard.circuit-breaker.instances.payment.exponential-max-wait-duration-in-open-state=5m").run(context -> {
            CircuitBreakerConfig payment = context.getBean(CircuitBreakerRegistry.class).configFor("payment");
            assertThat(payment.exponentialBackoffMultiplier()).isEqualTo(2.0);
            assertThat(payment.exponentialMaxWaitDurationInOpenState()).isEqualTo(Duration.ofMinutes(5));
        });
    }

    @Test
    void ignoringRuntimeExceptionStillRecordsResultsFlaggedByRecordResult() {
        runner.withPropertyValues(
                "guard.circuit-breaker.instances.payment.ignore-exceptions=java.lang.RuntimeException",
                "guard.circuit-breaker.instances.payment.minimum-number-of-calls=2",
                "guard.circuit-breaker.instances.payment.sliding-window-size=2").run(context -> {
            CircuitBreaker payment = context.getBean(CircuitBreakerRegistry.class).circuitBreaker("payment");
            CircuitBreakerPermissions paymentCalls = CircuitBreakerPermissions.of(payment);
            for (int i = 0; i < 2; i++) {
                assertThat(paymentCalls.tryAcquirePermission()).isTrue();
                paymentCalls.onError(0, new ResultRecordedAsFailureException("payment", "#result == null"));
            }
            assertThat(payment.state()).isEqualTo(State.OPEN);
            assertThat(paymentCalls.tryAcquirePermission()).isFalse();
            // What the user listed is still ignored.
            CircuitBreaker other = context.getBean(CircuitBreakerRegistry.class)
                    .circuitBreaker("other", context.getBean(CircuitBreakerRegistry.class).configFor("payment"));
            CircuitBreakerPermissions otherCalls = CircuitBreakerPermissions.of(other);
            for (int i = 0; i < 2; i++) {
                assertThat(otherCalls.tryAcquirePermission()).isTrue();
                otherCalls.onError(0, new IllegalStateException("ignored"));
            }
            assertThat(other.state()).isEqualTo(State.CLOSED);
        });
    }
}
