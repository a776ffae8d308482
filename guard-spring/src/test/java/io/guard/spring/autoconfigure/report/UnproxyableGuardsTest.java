package io.guard.spring.autoconfigure.report;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Guard annotations a Spring proxy can never apply stop start-up with a message that says so: a final class (Spring's
 * own error talks about CGLIB; a Kotlin class without the kotlin-spring plugin is final), and a final, private or
 * static method, which the proxy never sees, so its annotations would silently do nothing.
 */
class UnproxyableGuardsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local");

    static final class FinalOrders {
        @RateLimit(name = "final-orders", rate = 5)
        public String submit() {
            return "ok";
        }
    }

    static class Methods {
        @RateLimit(name = "final-method", rate = 5)
        public final String sealed() {
            return "ok";
        }

        @CircuitBreaker(name = "static-method")
        public static String shared() {
            return "ok";
        }

        @RateLimit(name = "private-method", rate = 5)
        private String hidden() {
            return "ok";
        }

        public String open() {
            return hidden();
        }
    }

    @Test
    void aFinalClassWithGuardsIsExplained() {
        runner.withBean(FinalOrders.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new FinalGuardedClassFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains(FinalOrders.class.getName())
                    .contains("carries Guard annotations").contains("but the class is final");
            assertThat(analysis.getAction()).isEqualTo("Remove final from FinalOrders (and from its guarded methods).");
        });
    }

    @Test
    void aFailureThatIsNotAboutAGuardedFinalClassIsLeftToOthers() {
        assertThat(new FinalGuardedClassFailureAnalyzer().analyze(
                new IllegalArgumentException("Cannot subclass final class java.lang.String"))).isNull();
    }

    @Test
    void finalPrivateAndStaticMethodsWithGuardsStopStartUpInOneReport() {
        runner.withBean(Methods.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = StartupReports.ofAnnotations(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription())
                    .contains("Methods.sealed").contains("is final: Spring's proxy cannot intercept it")
                    .contains("Methods.shared").contains("is static: Spring's proxy cannot intercept it")
                    .contains("Methods.hidden").contains("is private: Spring's proxy cannot intercept it");
        });
    }
}
