package io.guard.spring.aop;

import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.beans.factory.config.BeanPostProcessor;

import java.util.ArrayList;
import java.util.List;

/**
 * Moves Spring Framework 7's {@code @Retryable} and {@code @ConcurrencyLimit} advisors inside Guard's
 * ({@code guard.resilient-methods.position=inside}): each call then spends one permit and is one breaker call,
 * however often it is retried. Spring's post-processors put their advisors in front of a proxy's existing ones
 * (outermost); this one runs after them (it is not {@code Ordered}, so Spring runs it after every ordered
 * post-processor) and puts them back right after Guard's innermost advisor, in their own order.
 *
 * <p>Internal: public only because Guard's auto-configuration creates it; not an API.
 */
public final class ResilientMethodsInside implements BeanPostProcessor {

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof Advised advised && !advised.isFrozen()) {
            moveInside(advised);
        }
        return bean;
    }

    private static void moveInside(Advised advised) {
        Advisor[] advisors = advised.getAdvisors();
        int innermostGuard = -1;
        for (int i = 0; i < advisors.length; i++) {
            if (GuardAdvisors.isGuard(advisors[i])) {
                innermostGuard = i;
            }
        }
        List<Advisor> spring = new ArrayList<>();
        for (int i = 0; i < innermostGuard; i++) {
            if (GuardAdvisors.isSpringResilience(advisors[i])) {
                spring.add(advisors[i]);
            }
        }
        if (spring.isEmpty()) {
            return;
        }
        spring.forEach(advised::removeAdvisor);
        int position = innermostGuard - spring.size() + 1;
        for (Advisor advisor : spring) {
            advised.addAdvisor(position++, advisor);
        }
    }
}
