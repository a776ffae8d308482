package io.guard.spring.test;

import io.guard.test.redis.RedisEndpoint;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Points a context at the test's Redis: Redisson's own auto-configuration reads {@code spring.data.redis.url}, as in
 * an application, and Guard's keys go under the test's unique prefix. One context per test class, because starting
 * and stopping a Redisson client costs seconds.
 */
public final class RedisBacked {

    private RedisBacked() {
    }

    /** Applies the Redis properties (and any extra ones) to {@code context}, registers the classes, refreshes. */
    public static <C extends ConfigurableApplicationContext> C start(C context, RedisEndpoint redis,
                                                                    java.util.function.Consumer<C> register,
                                                                    String... properties) {
        TestPropertyValues.of("spring.data.redis.url=" + redis.url(),
                        "guard.rate-limit.key-prefix=" + redis.keyPrefix(),
                        "guard.rate-limit.backend=redis")
                .and(properties)
                .applyTo(context);
        register.accept(context);
        context.refresh();
        return context;
    }
}
