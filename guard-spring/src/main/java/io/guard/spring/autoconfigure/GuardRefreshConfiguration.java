package io.guard.spring.autoconfigure;

import io.guard.spring.method.GuardedMethods;
import io.guard.spring.ratelimit.GuardLeases;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.method.ConfiguredLimits;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Applies changed {@code guard.rate-limit.*} values on a configuration refresh, for applications that use Spring
 * Cloud (its {@code EnvironmentChangeEvent}); without Spring Cloud Context on the class path nothing of it exists.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(EnvironmentChangeEvent.class)
class GuardRefreshConfiguration {

    @Bean
    GuardConfigurationRefresh guardConfigurationRefresh(ConfigurableEnvironment environment,
                                                        ObjectProvider<LiveLimits> live,
                                                        ObjectProvider<GuardedMethods> methods,
                                                        ObjectProvider<ConfiguredLimits> configured,
                                                        ObjectProvider<GuardLeases> leases) {
        return new GuardConfigurationRefresh(environment, live, methods, configured, leases);
    }
}
