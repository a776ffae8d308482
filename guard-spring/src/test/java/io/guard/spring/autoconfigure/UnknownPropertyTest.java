package io.guard.spring.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** A property under {@code guard.*} that binds to nothing stops start-up, naming it and what to write instead. */
class UnknownPropertyTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local");

    private FailureAnalysis analysisOf(String... properties) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = new GuardUnknownPropertyFailureAnalyzer().analyze(context.getStartupFailure());
        });
        assertThat(analysis[0]).as("analysis of the start-up failure").isNotNull();
        return analysis[0];
    }

    @Test
    void aMisspelledPropertyNamesTheClosestValidOne() {
        FailureAnalysis analysis = analysisOf("guard.rate-limit.defaults.algoritm=token-bucket");
        assertThat(analysis.getDescription()).contains("guard.rate-limit.defaults.algoritm");
        assertThat(analysis.getAction()).contains("guard.rate-limit.defaults.algorithm");
    }

    @Test
    void aMisspelledInstancePropertyNamesTheClosestValidOne() {
        FailureAnalysis analysis = analysisOf(
                "guard.circuit-breaker.instances.payment.minimum-number-of-cals=5");
        assertThat(analysis.getDescription()).contains("guard.circuit-breaker.instances.payment.minimum-number-of-cals");
        assertThat(analysis.getAction()).contains("guard.circuit-breaker.instances.payment.minimum-number-of-calls");
    }

    @Test
    void resilience4jSharedConfigsAreRejectedWithWhatToWriteInstead() {
        FailureAnalysis analysis = analysisOf(
                "guard.circuit-breaker.configs.shared.minimum-number-of-calls=5",
                "guard.circuit-breaker.instances.payment.base-config=shared");
        assertThat(analysis.getDescription()).contains("guard.circuit-breaker.configs.shared.minimum-number-of-calls")
                .contains("guard.circuit-breaker.instances.payment.base-config");
        assertThat(analysis.getAction()).contains("guard.circuit-breaker.defaults");
    }

    @Test
    void validPropertiesStillStart() {
        runner.withPropertyValues("guard.rate-limit.defaults.algorithm=token-bucket",
                        "guard.circuit-breaker.instances.payment.minimum-number-of-calls=5",
                        "guard.events.buffer-size=10")
                .run(context -> assertThat(context).hasNotFailed());
    }
}
