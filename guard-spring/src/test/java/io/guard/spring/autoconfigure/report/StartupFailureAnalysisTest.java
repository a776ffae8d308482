package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** Every mistake in an annotation stops start-up with a description naming class, method, attribute and value. */
class StartupFailureAnalysisTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local");

    private FailureAnalysis analysisOf(Class<?> beanType) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.withBean(beanType).run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = new GuardAnnotationFailureAnalyzer().analyze(context.getStartupFailure());
        });
        assertThat(analysis[0]).as("analysis of the start-up failure").isNotNull();
        return analysis[0];
    }

    /** An order controller and an inventory client with three typos between them, as a new user writes them. */
    static class TypoController {
        @RateLimit(name = "order-submit", key = "#usrId", rate = 5, interval = "60s")
        public String submit(long userId) {
            return "ok";
        }

        @RateLimit(name = "order-detail", rate = 100, interval = "1 second")
        public String detail(long id) {
            return "ok";
        }
    }

    static class TypoInventory {
        @io.guard.spring.annotation.CircuitBreaker(name = "inventory", fallbackMethod = "degradd")
        public String stock(String sku) {
            return "ok";
        }

        public String degraded(String sku, Throwable failure) {
            return "degraded";
        }
    }

    @Test
    void everyBadAnnotationIsReportedInOneStartUp() {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.withBean(TypoController.class).withBean(TypoInventory.class).run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = new GuardAnnotationFailureAnalyzer().analyze(context.getStartupFailure());
        });
        assertThat(analysis[0].getDescription()).startsWith("3 Guard annotations cannot work:")
                .contains("@RateLimit on TypoController.submit(long): key '#usrId' refers to no parameter")
                .contains("@RateLimit on TypoController.detail(long): interval '1 second' is not a duration")
                .contains("@CircuitBreaker on TypoInventory.stock(String): fallbackMethod 'degradd'");
        assertThat(analysis[0].getAction()).contains("TypoController.submit(long)", "TypoInventory.stock(String)");
    }

    static class UnknownParameter {
        @RateLimit(name = "order-submit", key = "#usrId", rate = 5, interval = "60s")
        public String submit(long userId) {
            return "ok";
        }
    }

    static class UnparseableSpel {
        @RateLimit(name = "x", key = "#userId +", rate = 5)
        public String submit(long userId) {
            return "ok";
        }
    }

    static class TooManyPermits {
        @RateLimit(name = "bulk", rate = 5, permits = "6")
        public String submit() {
            return "ok";
        }
    }

    static class UnknownAlgorithm {
        @RateLimit(name = "x", rate = 5, algorithm = "LEAKY_BUCKET")
        public String submit() {
            return "ok";
        }
    }

    static class InvalidDuration {
        @RateLimit(name = "x", rate = 5, interval = "sixty seconds")
        public String submit() {
            return "ok";
        }
    }

    static class MissingRate {
        @RateLimit(name = "unconfigured")
        public String submit() {
            return "ok";
        }
    }

    static class MissingFallback {
        @CircuitBreaker(name = "inventory", fallbackMethod = "fallbak")
        public String stock(String sku) {
            return sku;
        }
    }

    static class ConditionOnUnknownParameter {
        @RateLimit(name = "submit", rate = 5, condition = "!#internl")
        public String submit(boolean internal) {
            return "ok";
        }
    }

    static class LimitFallbackTakingTheWrongError {
        @RateLimit(name = "submit", rate = 5, fallbackMethod = "busy")
        public String submit(String order) {
            return order;
        }

        @SuppressWarnings("unused")
        private String busy(String order, java.io.IOException refusal) {
            return "never";
        }
    }

    static class UnknownResultVariable {
        @CircuitBreaker(name = "inventory", recordResult = "#reslt == null")
        public String stock(String sku) {
            return sku;
        }
    }

    @Test
    void unknownParameter() {
        assertThat(analysisOf(UnknownParameter.class).getDescription()).isEqualTo(
                "@RateLimit on UnknownParameter.submit(long): key '#usrId' refers to no parameter (#usrId); "
                        + "parameters are [userId]");
    }

    @Test
    void unparseableSpel() {
        assertThat(analysisOf(UnparseableSpel.class).getDescription())
                .startsWith("@RateLimit on UnparseableSpel.submit(long): key '#userId +' is not valid SpEL");
    }

    @Test
    void permitsAboveTheRate() {
        assertThat(analysisOf(TooManyPermits.class).getDescription()).isEqualTo(
                "@RateLimit on TooManyPermits.submit(): permits '6' is more than limit 'bulk' can ever grant "
                        + "(between 1 and 5)");
    }

    @Test
    void unknownAlgorithm() {
        assertThat(analysisOf(UnknownAlgorithm.class).getDescription()).isEqualTo(
                "@RateLimit on UnknownAlgorithm.submit(): algorithm 'LEAKY_BUCKET' is not one of "
                        + "[SLIDING_LOG, TOKEN_BUCKET, FIXED_WINDOW]");
    }

    @Test
    void invalidDuration() {
        FailureAnalysis analysis = analysisOf(InvalidDuration.class);
        assertThat(analysis.getDescription()).isEqualTo(
                "@RateLimit on InvalidDuration.submit(): interval 'sixty seconds' is not a duration");
        assertThat(analysis.getAction()).contains("\"60s\"");
    }

    @Test
    void noRateAnywhere() {
        assertThat(analysisOf(MissingRate.class).getDescription()).isEqualTo(
                "@RateLimit on MissingRate.submit(): rate '0' is no rate (a limit grants at least 1 permit per "
                        + "interval; 0 is the annotation's default, meaning none given), and neither "
                        + "guard.rate-limit.instances.unconfigured.rate nor guard.rate-limit.defaults.rate gives one");
    }

    @Test
    void missingFallbackListsWhatWouldMatch() {
        FailureAnalysis analysis = analysisOf(MissingFallback.class);
        assertThat(analysis.getDescription()).isEqualTo(
                "@CircuitBreaker on MissingFallback.stock(String): fallbackMethod 'fallbak' names no method of "
                        + "MissingFallback");
        assertThat(analysis.getAction()).contains("fallbak(String) returning String",
                "fallbak(String, Throwable) returning String", "fallbak(Throwable) returning String");
    }

    @Test
    void aConditionIsCheckedAtStartUpLikeAKey() {
        assertThat(analysisOf(ConditionOnUnknownParameter.class).getDescription()).isEqualTo(
                "@RateLimit on ConditionOnUnknownParameter.submit(boolean): condition '!#internl' refers to no "
                        + "parameter (#internl); parameters are [internal]");
    }

    @Test
    void aLimitFallbackMustAcceptTheRefusal() {
        FailureAnalysis analysis = analysisOf(LimitFallbackTakingTheWrongError.class);
        assertThat(analysis.getDescription()).isEqualTo(
                "@RateLimit on LimitFallbackTakingTheWrongError.submit(String): fallbackMethod 'busy' has no overload "
                        + "that fits; found busy(String, IOException) returning String");
        assertThat(analysis.getAction()).contains("busy(String) returning String",
                "busy(String, RateLimitExceededException) returning String",
                "busy(RateLimitExceededException) returning String",
                "any supertype of RateLimitExceededException");
    }

    @Test
    void recordResultMayOnlyUseResultAndParameters() {
        assertThat(analysisOf(UnknownResultVariable.class).getDescription()).isEqualTo(
                "@CircuitBreaker on UnknownResultVariable.stock(String): recordResult '#reslt == null' refers to no "
                        + "parameter (#reslt); parameters are [sku]");
    }

    @Test
    void rateFromPropertiesSatisfiesAnAnnotationWithoutOne() {
        runner.withBean(MissingRate.class).withPropertyValues("guard.rate-limit.instances.unconfigured.rate=3")
                .run(context -> assertThat(context).hasNotFailed());
    }
}
