package io.guard.spring.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;

import static org.assertj.core.api.Assertions.assertThat;

class GuardRefreshConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withClassLoader(new FilteredClassLoader("org.redisson."))
            .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class));

    @Test
    void listensForRefreshesWhenSpringCloudContextIsThere() {
        runner.run(context -> assertThat(context).hasSingleBean(GuardConfigurationRefresh.class));
    }

    @Test
    void registersNothingWithoutSpringCloudContext() {
        runner.withClassLoader(new FilteredClassLoader(EnvironmentChangeEvent.class)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(GuardConfigurationRefresh.class);
        });
    }
}
