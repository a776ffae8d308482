package io.guard.spring.aop;

import io.guard.spring.key.RateLimitKeyContext;
import io.guard.spring.key.RateLimitKeyResolver;
import org.springframework.util.function.SingletonSupplier;

import java.util.function.Supplier;

/**
 * A {@link RateLimitKeyResolver} named on a {@code @RateLimit}: checked at start-up, fetched from the bean factory on
 * the first call (so that naming a bean does not change the order beans are created in).
 *
 * @param name the bean's name, for messages
 */
record KeyResolverBean(String name, Supplier<RateLimitKeyResolver> bean) {

    KeyResolverBean {
        bean = SingletonSupplier.of(bean);
    }

    String resolve(RateLimitKeyContext call) {
        return bean.get().resolve(call);
    }
}
