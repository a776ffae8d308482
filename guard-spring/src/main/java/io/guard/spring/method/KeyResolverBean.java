package io.guard.spring.method;

import io.guard.spring.key.RateLimitKeyContext;
import io.guard.spring.key.RateLimitKeyResolver;
import org.springframework.util.function.SingletonSupplier;

import java.util.function.Supplier;

/**
 * A {@link RateLimitKeyResolver} named on a {@code @RateLimit}: checked at start-up, fetched from the bean factory on
 * the first call (so that naming a bean does not change the order beans are created in).
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 *
 * @param name the bean's name, for messages
 */
public record KeyResolverBean(String name, Supplier<RateLimitKeyResolver> bean) {

    public KeyResolverBean {
        bean = SingletonSupplier.of(bean);
    }

    public String resolve(RateLimitKeyContext call) {
        return bean.get().resolve(call);
    }
}
