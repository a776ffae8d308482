package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.annotation.RateLimit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** Every bad guard.* value is reported in one start-up failure, each with its name, value and what is allowed. */
class EveryBadPropertyTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local");

    static class Search {
        @RateLimit(name = "a", rate = 5)
        public String search() {
            return "ok";
        }
    }

    @Test
    void aValidInstanceWithTiersStartsUp() {
        runner.withBean(Search.class).withPropertyValues("guard.rate-limit.instances.a.rate=7",
                "guard.rate-limit.instances.b.tiers.free.rate=3", "guard.rate-limit.instances.b.default-tier=free")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void threeBadValuesAreReportedInOneFailure() {
        FailureAnalysis analysis = StartupFailures.analysis(runner.withBean(Search.class).withPropertyValues(
                "guard.rate-limit.instances.a.rate=0",
                "guard.rate-limit.instances.b.interval=-1s",
                "guard.circuit-breaker.instances.c.failure-rate-threshold=150",
                "guard.circuit-breaker.instances.c.sliding-window-size=10"));
        assertThat(analysis.getDescription()).startsWith("3 Guard property values cannot work:")
                .contains("guard.rate-limit.instances.a.rate=0: rate must be between 1 and ")
                .contains("guard.rate-limit.instances.b.interval=-1s: interval must be at least 1ms but was PT-1S")
                .contains("guard.circuit-breaker.instances.c.failure-rate-threshold=150: failure-rate-threshold "
                        + "must be in (0, 100] but was 150.0")
                .doesNotContain("sliding-window-size");
        assertThat(analysis.getAction()).contains("what is allowed");
    }

    @Test
    void badDefaultsAndBadInstancesOfOneKindAreAllReported() {
        FailureAnalysis analysis = StartupFailures.analysis(runner.withPropertyValues(
                "guard.circuit-breaker.defaults.minimum-number-of-calls=0",
                "guard.circuit-breaker.instances.c.slow-call-rate-threshold=0",
                "guard.circuit-breaker.instances.c.wait-duration-in-open-state=0s",
                "guard.circuit-breaker.instances.d.max-concurrent-calls=-1",
                "guard.rate-limit.defaults.burst=-2",
                "guard.events.buffer-size=0"));
        assertThat(analysis.getDescription()).startsWith("6 Guard property values cannot work:")
                .contains("guard.circuit-breaker.defaults.minimum-number-of-calls=0: minimum-number-of-calls must be "
                        + "at least 1 but was 0")
                .contains("guard.circuit-breaker.instances.c.slow-call-rate-threshold=0:")
                .contains("guard.circuit-breaker.instances.c.wait-duration-in-open-state=0s:")
                .contains("guard.circuit-breaker.instances.d.max-concurrent-calls=-1: must not be negative")
                .contains("guard.rate-limit.defaults.burst=-2: burst must be at least 1 but was -2")
                .contains("guard.events.buffer-size=0: must be at least 1");
    }

    /** Only a token bucket has a burst: beside another algorithm it was ignored without a word. */
    @Test
    void aBurstBesideAnAlgorithmWithoutOneIsReported() {
        FailureAnalysis analysis = StartupFailures.analysis(runner.withPropertyValues(
                "guard.rate-limit.instances.orders.algorithm=SLIDING_LOG", "guard.rate-limit.instances.orders.burst=20",
                "guard.rate-limit.instances.api.algorithm=TOKEN_BUCKET", "guard.rate-limit.instances.api.burst=20",
                "guard.rate-limit.instances.api.tiers.free.algorithm=FIXED_WINDOW",
                "guard.rate-limit.instances.api.tiers.free.burst=5"));
        assertThat(analysis.getDescription()).startsWith("2 Guard property values cannot work:")
                .contains("guard.rate-limit.instances.orders.burst=20: applies to TOKEN_BUCKET only, but "
                        + "guard.rate-limit.instances.orders.algorithm is SLIDING_LOG, which would ignore it")
                .contains("guard.rate-limit.instances.api.tiers.free.burst=5: applies to TOKEN_BUCKET only")
                .doesNotContain("instances.api.burst");
        assertThat(analysis.getAction()).contains("Remove guard.rate-limit.instances.orders.burst, or set "
                + "guard.rate-limit.instances.orders.algorithm=token-bucket.");
    }

    /** SCG's burstCapacity 0 refuses everything; read as "unset" it would quietly admit up to the rate. */
    @Test
    void anExplicitBurstOfZeroIsReportedNotReadAsUnset() {
        FailureAnalysis analysis = StartupFailures.analysis(runner.withPropertyValues(
                "guard.rate-limit.instances.users.algorithm=TOKEN_BUCKET", "guard.rate-limit.instances.users.rate=10",
                "guard.rate-limit.instances.users.burst=0", "guard.rate-limit.defaults.burst=0"));
        assertThat(analysis.getDescription()).startsWith("2 Guard property values cannot work:")
                .contains("guard.rate-limit.instances.users.burst=0: burst must be at least 1 but was 0 (a bucket "
                        + "that holds nothing; Spring Cloud Gateway's burstCapacity 0 refuses every request, which no "
                        + "Guard limit does): leave burst out for a bucket as large as the rate")
                .contains("guard.rate-limit.defaults.burst=0: burst must be at least 1 but was 0");
    }

    @Test
    void anOverridePollIntervalThatIsNotPositiveIsReportedWithTheOtherBadValues() {
        FailureAnalysis analysis = StartupFailures.analysis(runner.withPropertyValues(
                "guard.rate-limit.override-poll-interval=0s",
                "guard.rate-limit.defaults.rate=0"));
        assertThat(analysis.getDescription()).startsWith("2 Guard property values cannot work:")
                .contains("guard.rate-limit.override-poll-interval=0s: must be positive")
                .contains("guard.rate-limit.defaults.rate=0:");
    }

    @Test
    void aRedisBatchBelowOneIsReportedWithTheOtherBadValuesWhateverTheBackend() {
        FailureAnalysis analysis = StartupFailures.analysis(runner.withPropertyValues(
                "guard.rate-limit.redis.max-batch=0",
                "guard.rate-limit.defaults.rate=0"));
        assertThat(analysis.getDescription()).startsWith("2 Guard property values cannot work:")
                .contains("guard.rate-limit.redis.max-batch=0: must be at least 1: it is the most decisions sent to "
                        + "Redis in one pipelined batch")
                .contains("guard.rate-limit.defaults.rate=0:");
        assertThat(analysis.getAction()).contains("guard.rate-limit.redis.max-batch=64 (the default)");
    }

    @Test
    void valuesThatAreEachFineButClashAreReportedUnderTheBreaker() {
        // Each is fine over the defaults' 10 s wait; together the cap (30 s) is below the instance's own wait (60 s).
        FailureAnalysis analysis = StartupFailures.analysis(runner.withPropertyValues(
                "guard.circuit-breaker.defaults.wait-duration-in-open-state=10s",
                "guard.circuit-breaker.instances.c.wait-duration-in-open-state=60s",
                "guard.circuit-breaker.instances.c.exponential-max-wait-duration-in-open-state=30s"));
        assertThat(analysis.getDescription())
                .startsWith("guard.circuit-breaker.instances.c: exponential-max-wait-duration-in-open-state");
    }

    @Test
    void unknownNamesUnreadableValuesAndBadValuesAreAllReportedInOneFailure() {
        FailureAnalysis analysis = StartupFailures.analysis(runner.withPropertyValues(
                "guard.rate-limits.instances.visits.rate=7",
                "guard.rate-limit.defaults.algoritm=token-bucket",
                "guard.rate-limit.redis.timeout=250 millis",
                "guard.rate-limit.instances.b.algorithm=leaky-bucket",
                "guard.rate-limit.instances.b.interval=-1s",
                "guard.circuit-breaker.instances.c.failure-rate-threshold=150"));
        assertThat(analysis.getDescription()).startsWith("4 Guard property values cannot work:")
                .contains("guard.rate-limit.redis.timeout=250 millis: cannot be read as Duration")
                .contains("guard.rate-limit.instances.b.algorithm=leaky-bucket: cannot be read as Algorithm")
                .contains("guard.rate-limit.instances.b.interval=-1s: interval must be at least 1ms")
                .contains("guard.circuit-breaker.instances.c.failure-rate-threshold=150: failure-rate-threshold "
                        + "must be in (0, 100]")
                .contains("Guard does not know these properties; they would be ignored:")
                .contains("guard.rate-limits.instances.visits.rate")
                .contains("guard.rate-limit.defaults.algoritm");
        assertThat(analysis.getAction()).contains("what is allowed")
                .contains("Replace guard.rate-limit.defaults.algoritm with guard.rate-limit.defaults.algorithm.");
    }

    @Test
    void goodValuesStartTheApplication() {
        runner.withBean(Search.class).withPropertyValues("guard.rate-limit.instances.a.rate=3",
                        "guard.rate-limit.instances.a.interval=10s", "guard.rate-limit.instances.a.burst=5",
                        "guard.rate-limit.instances.a.algorithm=token-bucket",
                        "guard.circuit-breaker.defaults.wait-duration-in-open-state=5s",
                        "guard.circuit-breaker.instances.c.exponential-max-wait-duration-in-open-state=10s")
                .run(context -> assertThat(context).hasNotFailed());
    }
}
