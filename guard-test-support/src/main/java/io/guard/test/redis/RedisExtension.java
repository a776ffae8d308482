package io.guard.test.redis;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstantiationAwareExtension;

/**
 * Resolves {@link RedisEndpoint} parameters. The server is shared by every test in the JVM (see {@link RedisSource}
 * for the order in which one is found); the key prefix is unique to the context that asks, so a test's
 * constructor, {@code @BeforeEach} and test method see the same prefix while two tests never do (a
 * {@code @BeforeAll} method or a per-class test instance gets a prefix for the whole class).
 *
 * <p>No Redis is a failure, never a skipped test: a build that silently skipped its Redis tests would prove nothing.
 */
public final class RedisExtension implements ParameterResolver, TestInstantiationAwareExtension {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RedisExtension.class);

    /** Constructors are resolved in the test method's context, so a constructor-injected prefix is per test too. */
    @Override
    public ExtensionContextScope getTestInstantiationExtensionContextScope(ExtensionContext rootContext) {
        return ExtensionContextScope.TEST_METHOD;
    }

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
