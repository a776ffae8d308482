package io.guard.test.redis;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves {@link RedisEndpoint} parameters. The server is shared by every test in the JVM (see {@link RedisSource}
 * for the order in which one is found); the key prefix is unique to the context that asks, so a test's
 * {@code @BeforeEach} and its test method see the same prefix while two tests never do.
 *
 * <p>No Redis is a failure, never a skipped test: a build that silently skipped its Redis tests would prove nothing.
 */
public final class RedisExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RedisExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == RedisEndpoint.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        SharedRedis shared = extensionContext.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(SharedRedis.class, type -> SharedRedis.start(), SharedRedis.class);
        return extensionContext.getStore(NAMESPACE).getOrComputeIfAbsent(
                "endpoint@" + extensionContext.getUniqueId(), key -> shared.newEndpoint(), RedisEndpoint.class);
    }
}
