package io.guard.spring.autoconfigure;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Makes sure the application has an auto-proxy creator for Guard's two advisors, as {@code @EnableCaching} and
 * {@code @EnableTransactionManagement} do, so that Guard needs no AspectJ on the class path: its advisors are plain
 * Spring AOP advisors of the infrastructure role. Spring Boot's {@code AopAutoConfiguration} registers the same
 * creator by default (and an AspectJ-aware one, which takes precedence, when the application has AspectJ); this one
 * covers {@code spring.aop.auto=false} and {@code spring.aop.proxy-target-class=false} without AspectJ.
 */
class GuardAutoProxyRegistrar implements ImportBeanDefinitionRegistrar {

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
    }
}
