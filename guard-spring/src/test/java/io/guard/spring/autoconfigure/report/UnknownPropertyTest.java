package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.breaker.CircuitBreakerRegistry;
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
            analysis[0] = new GuardPropertiesFailureAnalyzer().analyze(context.getStartupFailure());
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

    /** A section misnamed beyond spelling: the rest of the name tells which section it belongs in. */
    @Test
    void aMisnamedSectionNamesTheSectionUnderWhichTheRestOfTheNameBinds() {
        FailureAnalysis analysis = analysisOf("guard.rate-limit.limits.order-submit.wait-for-replicas=1");
        assertThat(analysis.getDescription()).contains("guard.rate-limit.limits.order-submit.wait-for-replicas");
        assertThat(analysis.getAction()).contains("Replace guard.rate-limit.limits.order-submit.wait-for-replicas "
                + "with guard.rate-limit.instances.order-submit.wait-for-replicas.");
    }

    @Test
    void aMisnamedBreakerSectionNamesItsPlaceToo() {
        FailureAnalysis analysis = analysisOf("guard.circuit-breaker.breakers.payment.minimum-number-of-calls=5");
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
    void aMisspelledSecondSegmentStopsStartUp() {
        for (String property : new String[] {"guard.circuitbreakers.instances.visits.sliding-window-size=7",
                "guard.breaker.instances.visits.sliding-window-size=7",
                "guard.ratelimit-instances.visits.rate=7",
                "guard.rate-limits.instances.visits.rate=7"}) {
            String name = property.substring(0, property.indexOf('='));
            assertThat(analysisOf(property).getDescription()).as(property).contains(name);
        }
    }

    @Test
    void resilience4jsSpellingOfTheBreakerPrefixIsBoundNotIgnored() {
        // Spring Boot's relaxed binding reads circuitbreaker, circuit_breaker and camelCase names as circuit-breaker:
        // the value takes effect, so nothing is ignored and nothing needs reporting.
        for (String property : new String[] {"guard.circuitbreaker.instances.visits.sliding-window-size=7",
                "guard.circuit_breaker.instances.visits.slidingWindowSize=7",
                "guard.circuitbreaker.instances.visits.slidingwindowsize=7"}) {
            runner.withPropertyValues(property).run(context -> {
                assertThat(context).as(property).hasNotFailed();
                assertThat(context.getBean(CircuitBreakerRegistry.class).configFor("visits").slidingWindowSize())
                        .as(property).isEqualTo(7);
            });
        }
    }

    @Test
    void validPropertiesStillStart() {
        runner.withPropertyValues("guard.rate-limit.defaults.algorithm=token-bucket",
                        "guard.circuit-breaker.instances.payment.minimum-number-of-calls=5",
                        "guard.events.buffer-size=10")
                .run(context -> assertThat(context).hasNotFailed());
    }
}
