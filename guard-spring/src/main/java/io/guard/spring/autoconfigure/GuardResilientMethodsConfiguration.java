package io.guard.spring.autoconfigure;

import io.guard.spring.aop.ResilientMethodsInside;
import io.guard.spring.aop.RetryableCombinations;
import io.guard.spring.method.GuardedMethods;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

/**
 * Guard next to Spring Framework 7's {@code @Retryable} and {@code @ConcurrencyLimit}: where they run
 * ({@code guard.resilient-methods.position}) and a start-up warning for combinations that are surely wrong. Absent on
 * Spring Framework 6 (Boot 3.5), which has neither annotation.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.resilience.annotation.Retryable")
class GuardResilientMethodsConfiguration {

    @Bean
    static RetryableCombinations guardRetryableCombinations(ConfigurableListableBeanFactory beanFactory,
                                                            ObjectProvider<GuardedMethods> methods) {
        return new RetryableCombinations(beanFactory, methods::getObject);
    }

    /** Not ordered, so that it runs after Spring's resilience post-processors, which are. */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnProperty(prefix = "guard.resilient-methods", name = "position", havingValue = "inside")
    static ResilientMethodsInside guardResilientMethodsInside() {
        return new ResilientMethodsInside();
    }
}
