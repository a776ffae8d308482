package io.guard.spring.boot.autoconfigure;

import io.guard.spring.test.AutoConfigs;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code guard.enabled=false} costs next to nothing at start-up: every auto-configuration Guard registers (and its
 * management-context configuration) is gated by it, so no bean of Guard's remains next to the actuator and metrics.
 */
class GuardDisabledStartupTest {

    /** Registered by spring.factories for the management context; package-private to io.guard.spring.actuate. */
    private static final Class<?> MANAGEMENT_CONTEXT = ClassUtils.resolveClassName(
            "io.guard.spring.actuate.GuardEventStreamManagementContextConfiguration", null);


    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(autoConfigurations()))
            .withUserConfiguration(MANAGEMENT_CONTEXT)
            .withPropertyValues("management.endpoints.web.exposure.include=*", "guard.rate-limit.backend=local");

    @Test
    void disabledGuardLeavesNoBeanOfItsOwn() {
        runner.withPropertyValues("guard.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(guardBeans(context)).isEmpty();
        });
    }

    @Test
    void enabledGuardHasItsBeansInTheSameContext() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(guardBeans(context)).contains("guardRateLimitAdvisor", "guardedMethods", "guardEndpoint",
                    "guardHealthContributor", "guardMetrics");
        });
    }

    /** Guard's own auto-configurations, as registered for Boot to find, and the Boot ones they build on. */
    private static Class<?>[] autoConfigurations() {
        List<Class<?>> types = new ArrayList<>(List.of(AutoConfigs.types("AopAutoConfiguration",
                "EndpointAutoConfiguration", "WebEndpointAutoConfiguration", "HealthContributorAutoConfiguration",
                "MetricsAutoConfiguration", "SimpleMetricsExportAutoConfiguration",
                "CompositeMeterRegistryAutoConfiguration")));
        ClassLoader loader = GuardDisabledStartupTest.class.getClassLoader();
        for (String name : ImportCandidates.load(AutoConfiguration.class, loader)) {
            if (name.startsWith("io.guard.")) {
                types.add(ClassUtils.resolveClassName(name, loader));
            }
        }
        return types.toArray(Class<?>[]::new);
    }

    private static List<String> guardBeans(ConfigurableApplicationContext context) {
        return Arrays.stream(context.getBeanDefinitionNames())
                .filter(name -> {
                    Class<?> type = context.getBeanFactory().getType(name, false);
                    return name.toLowerCase().contains("guard")
                            || (type != null && type.getName().startsWith("io.guard."));
                })
                .filter(name -> !name.equals(MANAGEMENT_CONTEXT.getName())
                        && !name.startsWith("io.guard.") && !name.contains("AutoConfiguration"))
                .toList();
    }
}
