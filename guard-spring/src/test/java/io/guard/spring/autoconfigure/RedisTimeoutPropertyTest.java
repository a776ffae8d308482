package io.guard.spring.autoconfigure;

import io.guard.spring.autoconfigure.report.StartupReports;
import io.guard.breaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mockito.Mockito;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.diagnostics.FailureAnalysis;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code guard.rate-limit.redis.timeout} becomes the backend breaker's timeout, which bounds every decision; a value
 * that cannot bound anything stops start-up naming the property and the value.
 */
class RedisTimeoutPropertyTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=redis")
            .withBean(RedissonClient.class, () -> Mockito.mock(RedissonClient.class));

    @Test
    void theBackendBreakerTimesDecisionsOutAfter250MillisecondsByDefault() {
        runner.run(context -> assertThat(backendTimeout(context.getBean(CircuitBreakerRegistry.class)))
                .isEqualTo(Duration.ofMillis(250)));
    }

    @Test
    void theTimeoutPropertySetsTheBound() {
        runner.withPropertyValues("guard.rate-limit.redis.timeout=80ms")
                .run(context -> assertThat(backendTimeout(context.getBean(CircuitBreakerRegistry.class)))
                        .isEqualTo(Duration.ofMillis(80)));
    }

    @Test
    void anApplicationsOwnBackendBreakerSettingsKeepTheTimeoutProperty() {
        runner.withPropertyValues("guard.rate-limit.redis.timeout=400ms",
                        "guard.circuit-breaker.instances.guard-rate-limit-backend.minimum-number-of-calls=2",
                        "guard.circuit-breaker.instances.guard-rate-limit-backend.sliding-window-size=2")
                .run(context -> {
                    var config = context.getBean(CircuitBreakerRegistry.class).find("guard-rate-limit-backend")
                            .orElseThrow().config();
                    assertThat(config.minimumNumberOfCalls()).isEqualTo(2);
                    assertThat(config.slidingWindowSize()).isEqualTo(2);
                    assertThat(config.timeout()).isEqualTo(Duration.ofMillis(400));
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1s"})
    void aTimeoutThatIsNotPositiveStopsStartUpNamingThePropertyAndTheValue(String timeout) {
        runner.withPropertyValues("guard.rate-limit.redis.timeout=" + timeout).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = StartupReports.ofProperties(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            String value = timeout.equals("0") ? "PT0S" : "PT-1S";
            assertThat(analysis.getDescription()).isEqualTo("guard.rate-limit.redis.timeout: is '" + value
                    + "' but must be positive: it bounds how long a decision waits for Redis");
            assertThat(analysis.getAction()).contains("guard.rate-limit.redis.timeout=250ms");
        });
    }

    @Test
    void aTimeoutThatIsNoDurationStopsStartUpNamingTheProperty() {
        runner.withPropertyValues("guard.rate-limit.redis.timeout=250 millis").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isNotNull();
            Throwable bind = context.getStartupFailure();
            while (bind != null && !(bind instanceof org.springframework.boot.context.properties.bind.BindException)) {
                bind = bind.getCause();
            }
            assertThat(bind).isNotNull().hasMessage("Failed to bind properties under 'guard.rate-limit.redis.timeout' "
                    + "to java.time.Duration");
        });
    }

    private static Duration backendTimeout(CircuitBreakerRegistry breakers) {
        return breakers.find("guard-rate-limit-backend").orElseThrow().config().timeout();
    }
}
