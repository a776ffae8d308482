package io.guard.spring.method;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Resolves the Guard annotations of every singleton once all singletons exist, so that every mistake (SpEL,
 * fallbacks, durations, limits) stops start-up, not only those on methods that happen to be called early, and all of
 * them in one report: three typos cost one restart, not three. Beans created later (prototypes, lazy beans) are
 * checked on their first call.
 */
public final class GuardAnnotationValidator implements SmartInitializingSingleton {

    private final ConfigurableListableBeanFactory beanFactory;
    private final Supplier<GuardedMethods> methods;

    public GuardAnnotationValidator(ConfigurableListableBeanFactory beanFactory, Supplier<GuardedMethods> methods) {
        this.beanFactory = beanFactory;
        this.methods = methods;
    }

    @Override
    public void afterSingletonsInstantiated() {
        GuardedMethods guarded = methods.get();
        Map<String, GuardAnnotationException> problems = new LinkedHashMap<>();
        for (String name : beanFactory.getBeanDefinitionNames()) {
            BeanDefinition definition = beanFactory.getMergedBeanDefinition(name);
            if (definition.isAbstract() || !definition.isSingleton() || definition.isLazyInit()) {
                continue;
            }
            Class<?> type = beanFactory.getType(name, false);
            if (type != null && AopUtils.isJdkDynamicProxy(beanFactory.getSingleton(name))) {
                type = AopUtils.getTargetClass(beanFactory.getSingleton(name));
            }
            if (type != null) {
                guarded.validate(type).forEach(problem -> problems.putIfAbsent(problem.getMessage(), problem));
            }
        }
        if (!problems.isEmpty()) {
            throw GuardAnnotationException.of(List.copyOf(problems.values()));
        }
    }
}
