package io.guard.spring.method;

import io.guard.spring.key.RateLimitKeyResolver;
import org.springframework.beans.factory.BeanFactory;

/**
 * Finds the {@link RateLimitKeyResolver} beans that {@code @RateLimit(keyResolver = ...)} names, at start-up.
 *
 * <p>Internal: public only because Guard's {@code routes} package uses it; not an API.
 */
public final class KeyResolverBeans {

    private final BeanFactory beanFactory;

    /** @param beanFactory where the beans are; null when there is none (then no name resolves) */
    public KeyResolverBeans(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /** The bean of that name; throws a {@link GuardAnnotationException} naming the site when it is not usable. */
    KeyResolverBean find(AnnotationSite site, String name) {
        if (beanFactory == null || !beanFactory.containsBean(name)) {
            throw site.error("keyResolver", name, "refers to no bean",
                    "Declare a RateLimitKeyResolver bean named '" + name + "', or fix the name.");
        }
        if (!beanFactory.isTypeMatch(name, RateLimitKeyResolver.class)) {
            Class<?> type = beanFactory.getType(name);
            throw site.error("keyResolver", name, "names a bean of type "
                            + (type == null ? "unknown" : type.getName()) + ", not a RateLimitKeyResolver",
                    "Name a bean that implements io.guard.spring.key.RateLimitKeyResolver.");
        }
        return new KeyResolverBean(name, () -> beanFactory.getBean(name, RateLimitKeyResolver.class));
    }
}
