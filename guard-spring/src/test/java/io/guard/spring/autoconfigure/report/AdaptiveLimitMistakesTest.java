package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad adaptive-limit values and a missing concurrency-limits jar stop start-up, each named with its value. */
class AdaptiveLimitMistakesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local");

    @Test
    void validAdaptiveSettingsStartUp() {
        runner.withPropertyValues("guard.circuit-breaker.instances.a.max-concurrent-calls=adaptive",
                        "guard.circuit-breaker.instances.a.adaptive-limit.algorithm=vegas",
                        "guard.circuit-breaker.instances.a.adaptive-limit.smoothing=0.5",
                        "guard.circuit-breaker.instances.b.max-concurrent-calls=Adaptive",
                        "guard.circuit-breaker.instances.c.max-concurrent-calls=12",
                        "guard.server-limit.adaptive-limit.algorithm=aimd",
                        "guard.server-limit.adaptive-limit.timeout=250ms")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void everyBadValueIsNamedWithWhatIsAllowed() {
        FailureAnalysis analysis = StartupFailures.analysis(runner.withPropertyValues(
                "guard.circuit-breaker.instances.a.max-concurrent-calls=adaptiv",
                "guard.circuit-breaker.instances.b.max-concurrent-calls=-2",
                "guard.circuit-breaker.instances.c.adaptive-limit.algorithm=gradient2",
                "guard.circuit-breaker.instances.c.adaptive-limit.timeout=2s",
                "guard.circuit-breaker.defaults.adaptive-limit.smoothing=1.5",
                "guard.server-limit.adaptive-limit.min-limit=50",
                "guard.server-limit.adaptive-limit.initial-limit=10"));
        assertThat(analysis.getDescription()).startsWith("5 Guard property values cannot work:")
                .contains("guard.circuit-breaker.instances.a.max-concurrent-calls=adaptiv: must be a number of calls "
                        + "(0 for no bulkhead) or 'adaptive' for a limit that moves")
                .contains("guard.circuit-breaker.instances.b.max-concurrent-calls=-2: must not be negative")
                .contains("guard.circuit-breaker.instances.c.adaptive-limit.timeout=2s: is not a setting of gradient2, "
                        + "only of [aimd]")
                .contains("guard.circuit-breaker.defaults.adaptive-limit.smoothing=1.5: must be in (0, 1]")
                .contains("guard.server-limit.adaptive-limit: min-limit (50) <= initial-limit (10) <= max-limit "
                        + "(200) does not hold");
    }

    @Test
    void anAdaptiveBulkheadWithoutTheLibraryNamesTheDependencyToAdd() {
        FailureAnalysis analysis = StartupFailures.analysis(runner
                .withClassLoader(new FilteredClassLoader("com.netflix.concurrency.limits"))
                .withPropertyValues("guard.circuit-breaker.instances.orders.max-concurrent-calls=adaptive",
                        "guard.server-limit.enabled=true"));
        assertThat(analysis.getDescription()).startsWith("2 Guard property values cannot work:")
                .contains("guard.circuit-breaker.instances.orders.max-concurrent-calls=adaptive: an adaptive limit "
                        + "runs Netflix's concurrency-limits algorithms, and "
                        + "com.netflix.concurrency-limits:concurrency-limits-core is not on the class path")
                .contains("guard.server-limit.enabled=true: an adaptive limit")
                .as("a snippet that builds as pasted: with the version Guard's pom uses")
                .contains("<artifactId>concurrency-limits-core</artifactId><version>" + pomVersion() + "</version>");
        assertThat(analysis.getAction()).contains("Add com.netflix.concurrency-limits:concurrency-limits-core");
    }

    /** {@code concurrency-limits.version} in the root pom, which the message must name. */
    private static String pomVersion() {
        for (java.nio.file.Path dir = java.nio.file.Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            java.nio.file.Path pom = dir.resolve("pom.xml");
            try {
                if (java.nio.file.Files.exists(dir.resolve("guard-bom")) && java.nio.file.Files.exists(pom)) {
                    java.util.regex.Matcher version = java.util.regex.Pattern.compile(
                            "<concurrency-limits.version>([^<]+)</concurrency-limits.version>")
                            .matcher(java.nio.file.Files.readString(pom));
                    if (version.find()) {
                        return version.group(1);
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no root pom with concurrency-limits.version above " + java.nio.file.Path.of(""));
    }
}
