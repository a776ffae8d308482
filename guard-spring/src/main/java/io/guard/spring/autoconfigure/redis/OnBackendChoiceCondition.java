package io.guard.spring.autoconfigure.redis;

import io.guard.spring.autoconfigure.report.GuardPropertiesCheck;
import io.guard.spring.autoconfigure.RateLimitProperties.Backend;
import io.guard.spring.autoconfigure.RateLimitRedisProperties.Client;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

import java.util.Arrays;
import java.util.Map;

/**
 * Gathers what {@link BackendChoice#decide} needs from the context (properties, class presence, bean definitions) and
 * matches the configurations annotated with the choice. Evaluated when beans are registered, after the Redis client
 * auto-configurations, like {@code @ConditionalOnBean}.
 *
 * <p>Internal: public for the start-up report, which asks it from the bean definitions; not an API.
 */
public class OnBackendChoiceCondition extends SpringBootCondition implements ConfigurationCondition {

    private static final String REDISSON_CLIENT = "org.redisson.api.RedissonClient";
    private static final String CONNECTION_FACTORY = "org.springframework.data.redis.connection.RedisConnectionFactory";
    private static final String LETTUCE = "io.lettuce.core.RedisClient";

    @Override
    public ConfigurationPhase getConfigurationPhase() {
        return ConfigurationPhase.REGISTER_BEAN;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        BackendChoice choice = choice(context);
        Map<String, Object> attributes = metadata.getAnnotationAttributes(ConditionalOnBackendChoice.class.getName());
        BackendChoice.RedisClient[] wanted = (BackendChoice.RedisClient[]) attributes.get("value");
        String message = "Guard's rate-limit backend is " + choice.client() + " (" + choice.reason() + ")";
        return Arrays.asList(wanted).contains(choice.client())
                ? ConditionOutcome.match(message) : ConditionOutcome.noMatch(message);
    }

    static BackendChoice choice(ConditionContext context) {
        Binder binder = Binder.get(context.getEnvironment());
        Backend backend = binder.bind("guard.rate-limit.backend", Backend.class).orElse(Backend.AUTO);
        Client client = binder.bind("guard.rate-limit.redis.client", Client.class).orElse(Client.AUTO);
        return choice(backend, client, context.getBeanFactory(), context.getClassLoader());
    }

    /**
     * The choice for these properties and the Redis client beans {@code beans} defines (asked by type, nothing
     * created): also how {@link GuardPropertiesCheck} finds a client chosen that the application lacks.
     */
    public static BackendChoice choice(Backend backend, Client client, ListableBeanFactory beans,
                                       ClassLoader loader) {
        boolean redisson = hasBean(beans, loader, REDISSON_CLIENT);
        boolean lettuce = ClassUtils.isPresent(LETTUCE, loader) && hasBean(beans, loader, CONNECTION_FACTORY);
        return BackendChoice.decide(backend, client, redisson, lettuce);
    }

    private static boolean hasBean(ListableBeanFactory beans, ClassLoader loader, String type) {
        if (beans == null || !ClassUtils.isPresent(type, loader)) {
            return false;
        }
        Class<?> resolved = ClassUtils.resolveClassName(type, loader);
        return BeanFactoryUtils.beanNamesForTypeIncludingAncestors(beans, resolved, true, false).length > 0;
    }
}
