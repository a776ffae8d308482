package io.guard.spring.aot;

import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;

/**
 * Declares, while Spring AOT processes an application, the reflection Guard will do on each bean that carries
 * {@code @RateLimit} or {@code @CircuitBreaker} (see {@link GuardedType}): the fallback methods are found by the name
 * an annotation gives, which no static analysis of a native image can follow.
 */
class GuardedBeanAotProcessor implements BeanRegistrationAotProcessor {

    @Override
    public BeanRegistrationAotContribution processAheadOfTime(RegisteredBean bean) {
        GuardedType guarded = GuardedType.of(bean.getBeanClass());
        if (guarded.isEmpty()) {
            return null;
        }
        return (generationContext, code) -> guarded.registerHints(generationContext.getRuntimeHints());
    }
}
