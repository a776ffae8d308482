package io.guard.spring.autoconfigure;

import io.guard.spring.autoconfigure.report.StartupReports;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.key.RateLimitKeyResolver;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request variables and key-resolver beans are checked at start-up like every other part of an annotation: a
 * misspelt variable, a missing bean or a bean of the wrong type stops the application, naming method and culprit.
 */
class KeyVariablesStartupTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local");

    static class Known {
        @RateLimit(name = "per-ip", key = "#clientIp", rate = 5, condition = "#principal == null")
        public String ip() {
            return "ok";
        }

        @RateLimit(name = "per-key", key = "#headers['X-Api-Key']", rate = 5, permits = "#headers.size() > 0 ? 1 : 1")
        public String apiKey() {
            return "ok";
        }

        @RateLimit(name = "per-tenant", keyResolver = "tenantKey", rate = 5)
        public String tenant() {
            return "ok";
        }
    }

    static class MisspeltVariable {
        @RateLimit(name = "per-ip", key = "#clientIP", rate = 5)
        public String ip(String region) {
            return "ok";
        }
    }

    static class MissingResolver {
        @RateLimit(name = "per-tenant", keyResolver = "tenantKeys", rate = 5)
        public String tenant() {
            return "ok";
        }
    }

    static class ResolverAndKey {
        @RateLimit(name = "per-tenant", key = "#clientIp", keyResolver = "tenantKey", rate = 5)
        public String tenant() {
            return "ok";
        }
    }

    static class NotAResolver {
        @RateLimit(name = "per-tenant", keyResolver = "clock", rate = 5)
        public String tenant() {
            return "ok";
        }
    }

    @Test
    void requestVariablesAndNamedResolversAreAccepted() {
        runner.withBean(Known.class)
                .withBean("tenantKey", RateLimitKeyResolver.class, () -> call -> call.header("X-Tenant"))
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aMisspeltVariableNamesMethodExpressionAndTheVariablesThereAre() {
        FailureAnalysis analysis = analysisOf(runner.withBean(MisspeltVariable.class));
        assertThat(analysis.getDescription()).contains("@RateLimit on MisspeltVariable.ip(String): key '#clientIP' "
                + "refers to no parameter (#clientIP); parameters are [region]");
        assertThat(analysis.getAction()).contains("#root, or #clientIp, #headers, #principal");
    }

    @Test
    void anUnknownResolverBeanNamesMethodAndBean() {
        FailureAnalysis analysis = analysisOf(runner.withBean(MissingResolver.class)
                .withBean("tenantKey", RateLimitKeyResolver.class, () -> call -> "t"));
        assertThat(analysis.getDescription())
                .contains("@RateLimit on MissingResolver.tenant(): keyResolver 'tenantKeys' refers to no bean");
        assertThat(analysis.getAction()).contains("Declare a RateLimitKeyResolver bean named 'tenantKeys'");
    }

    @Test
    void aBeanOfAnotherTypeIsNoResolver() {
        FailureAnalysis analysis = analysisOf(runner.withBean(NotAResolver.class)
                .withBean("clock", Supplier.class, () -> () -> "tick"));
        assertThat(analysis.getDescription()).contains("@RateLimit on NotAResolver.tenant(): keyResolver 'clock' "
                + "names a bean of type", "not a RateLimitKeyResolver");
    }

    @Test
    void aKeyAndAResolverTogetherAreAmbiguous() {
        FailureAnalysis analysis = analysisOf(runner.withBean(ResolverAndKey.class)
                .withBean("tenantKey", RateLimitKeyResolver.class, () -> call -> "t"));
        assertThat(analysis.getDescription()).contains(
                "@RateLimit on ResolverAndKey.tenant(): keyResolver 'tenantKey' is set together with key '#clientIp'");
    }

    private static FailureAnalysis analysisOf(ApplicationContextRunner runner) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = StartupReports.ofAnnotations(context.getStartupFailure());
        });
        assertThat(analysis[0]).as("analysis of the start-up failure").isNotNull();
        return analysis[0];
    }
}
