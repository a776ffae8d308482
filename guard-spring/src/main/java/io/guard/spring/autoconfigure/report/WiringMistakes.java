package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.GuardProperties;
import io.guard.spring.autoconfigure.GuardRoutesConfiguration;
import io.guard.spring.autoconfigure.RateLimitProperties;
import io.guard.spring.autoconfigure.RouteProperties;
import io.guard.spring.autoconfigure.redis.BackendChoice;
import io.guard.spring.autoconfigure.redis.GuardRateLimiterBackendConfiguration;
import io.guard.spring.autoconfigure.redis.GuardRedissonClientConfiguration;
import io.guard.spring.autoconfigure.redis.OnBackendChoiceCondition;
import io.guard.breaker.BreakerStateStore;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.redis.ScriptConnection;
import io.guard.spring.autoconfigure.redis.BackendChoice.RedisClient;
import io.guard.spring.autoconfigure.RateLimitProperties.Backend;
import io.guard.spring.autoconfigure.RateLimitRedisProperties.Client;
import io.guard.spring.method.GuardAnnotationException;
import io.guard.spring.routes.RouteLimits;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.type.MethodMetadata;
import org.springframework.util.ClassUtils;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The {@code guard.*} values that cannot work with the beans this application defines: a Redis client or backend
 * chosen without its bean, a {@code RedisConnectionFactory} that is not Lettuce's, fleet-wide breaker control without
 * Redis, a database for Guard's keys with the application's own {@code RedissonClient}, and the routes (whose key
 * expressions may name beans). Found from the bean definitions, by type and without creating any bean, so that
 * {@link GuardPropertiesCheck} reports them with every other mistake instead of the first bean that needs one
 * stopping start-up on its own. Each is looked for only where Guard builds the bean that needs it: an application
 * with its own {@link RateLimiter} needs no Redis client for {@code backend=redis}.
 */
final class WiringMistakes {

    private static final String LIMITS = "guard.rate-limit.";
    private static final String CONNECTION_FACTORY = "org.springframework.data.redis.connection.RedisConnectionFactory";
    private static final String REDISSON_CLIENT = "org.redisson.api.RedissonClient";
    private static final String LETTUCE_FACTORY =
            "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory";

    private WiringMistakes() {
    }

    /**
     * @param origin where a property was written ({@code " [from ...]"}), or an empty string
     */
    static List<PropertyMistakes.Mistake> in(GuardProperties properties, ConfigurableListableBeanFactory beans,
                                             UnaryOperator<String> origin) {
        List<PropertyMistakes.Mistake> found = new ArrayList<>();
        RateLimitProperties limits = properties.getRateLimit();
        backend(limits, beans, found);
        if (properties.getCircuitBreaker().getFleet().isEnabled()
                && beans.getBeanNamesForType(BreakerStateStore.class, true, false).length == 0) {
            found.add(new PropertyMistakes.Mistake("guard.circuit-breaker.fleet.enabled", true,
                    "needs Redis, which carries the fleet-wide commands, but rate limits are counted in process here",
                    "Add a RedissonClient or Spring Data Redis (Lettuce) for Guard's Redis backend, or remove "
                            + "guard.circuit-breaker.fleet.enabled."));
        }
        if (definedBy(beans, RouteLimits.class, GuardRoutesConfiguration.class)) {
            List<GuardAnnotationException> problems = RouteLimits.problems(
                    limits.getRoutes().stream().map(RouteProperties::toDefinition).toList(), beans,
                    limits::instanceSettings, limits.getDefaults().toSettings());
            if (!problems.isEmpty()) {
                found.add(GuardRoutesConfiguration.mistake(problems, origin));
            }
        }
        return found;
    }

    private static void backend(RateLimitProperties limits, ConfigurableListableBeanFactory beans,
                                List<PropertyMistakes.Mistake> found) {
        Backend backend = limits.getBackend();
        Client client = limits.getRedis().getClient();
        BackendChoice choice = OnBackendChoiceCondition.choice(backend, client, beans, beans.getBeanClassLoader());
        if (!choice.redis() && backend != Backend.LOCAL
                && definedBy(beans, RateLimiter.class, GuardRateLimiterBackendConfiguration.Local.class)) {
            clientMissing(backend, client, found);
        } else if (choice.client() == RedisClient.SPRING_DATA_LETTUCE && definedBy(beans, ScriptConnection.class,
                GuardRateLimiterBackendConfiguration.SpringDataScripts.class)) {
            notLettuce(beans, found);
        } else if (choice.client() == RedisClient.REDISSON && limits.getRedis().getDatabase() != null
                && definedBy(beans, ScriptConnection.class, GuardRateLimiterBackendConfiguration.RedissonScripts.class)) {
            applicationsRedisson(limits.getRedis().getDatabase(), beans, found);
        }
    }

    /**
     * A database of Guard's own cannot be had from the application's {@code RedissonClient}: a Redisson client
     * selects one database for all its connections, and a second client made from the first one's configuration
     * would double its threads and connections behind the application's back. Guard's own client (made from
     * {@code spring.data.redis.*}) takes the database itself.
     */
    private static void applicationsRedisson(int database, ConfigurableListableBeanFactory beans,
                                             List<PropertyMistakes.Mistake> found) {
        Class<?> redisson = ClassUtils.resolveClassName(REDISSON_CLIENT, beans.getBeanClassLoader());
        if (definedBy(beans, redisson, GuardRedissonClientConfiguration.class)) {
            return;
        }
        String[] names = beans.getBeanNamesForType(redisson, true, false);
        String bean = names.length > 0 ? "'" + names[0] + "'" : "";
        found.add(new PropertyMistakes.Mistake(LIMITS + "redis.database", database, "Guard's scripts run on the "
                + "application's RedissonClient bean " + bean + ", whose database Guard cannot change",
                "Set the database in that RedissonClient's own configuration, or leave "
                        + "guard.rate-limit.redis.database out, or set guard.rate-limit.redis.client=spring-data to "
                        + "run Guard on Spring Data Redis's connection factory in a database of its own."));
    }

    private static void clientMissing(Backend backend, Client client, List<PropertyMistakes.Mistake> found) {
        if (client != Client.AUTO) {
            String bean = client == Client.REDISSON ? "RedissonClient" : "RedisConnectionFactory";
            found.add(new PropertyMistakes.Mistake(LIMITS + "redis.client", null, "is '"
                    + client.name().toLowerCase().replace('_', '-') + "' but the application has no " + bean + " bean",
                    "Add the client's Spring Boot starter (redisson-spring-boot-starter or "
                            + "spring-boot-starter-data-redis), or set guard.rate-limit.redis.client=auto."));
        } else if (backend == Backend.REDIS) {
            found.add(new PropertyMistakes.Mistake(LIMITS + "backend", null,
                    "is 'redis' but the application has no RedissonClient or RedisConnectionFactory bean",
                    "Add org.redisson:redisson (Guard then connects to the Redis that spring.data.redis.* names) or "
                            + "spring-boot-starter-data-redis, or set guard.rate-limit.backend=local for limits "
                            + "counted per instance."));
        }
    }

    /**
     * Guard drives Lettuce only. Known here when no factory's declared type can be Lettuce's (a {@code @Bean} method
     * declared to return the interface is known only once built: the bean then refuses it itself).
     */
    private static void notLettuce(ConfigurableListableBeanFactory beans, List<PropertyMistakes.Mistake> found) {
        ClassLoader loader = beans.getBeanClassLoader();
        if (!ClassUtils.isPresent(LETTUCE_FACTORY, loader)) {
            return;
        }
        Class<?> lettuce = ClassUtils.resolveClassName(LETTUCE_FACTORY, loader);
        String[] names = beans.getBeanNamesForType(ClassUtils.resolveClassName(CONNECTION_FACTORY, loader), true,
                false);
        boolean noneCanBeLettuce = names.length > 0 && Arrays.stream(names).allMatch(name -> {
            Class<?> type = beans.getType(name, false);
            return type != null && !lettuce.isAssignableFrom(type) && !type.isAssignableFrom(lettuce);
        });
        if (noneCanBeLettuce) {
            found.add(new PropertyMistakes.Mistake(LIMITS + "redis.client", null, "Guard's Redis backend runs on "
                    + "Spring Data Redis with Lettuce only, but the RedisConnectionFactory bean '" + names[0]
                    + "' is a " + beans.getType(names[0], false).getName(),
                    GuardRateLimiterBackendConfiguration.NOT_LETTUCE_ACTION));
        }
    }

    /** Whether Guard builds a bean of {@code type} itself, from a {@code @Bean} method of {@code configuration}. */
    private static boolean definedBy(ConfigurableListableBeanFactory beans, Class<?> type, Class<?> configuration) {
        for (String name : beans.getBeanNamesForType(type, true, false)) {
            // a singleton registered as an object has no definition, and is none of Guard's
            BeanDefinition definition = beans.containsBeanDefinition(name) ? beans.getBeanDefinition(name) : null;
            MethodMetadata method = definition instanceof AnnotatedBeanDefinition annotated
                    ? annotated.getFactoryMethodMetadata() : null;
            if (method != null && method.getDeclaringClassName().equals(configuration.getName())) {
                return true;
            }
        }
        return false;
    }
}
