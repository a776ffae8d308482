package io.guard.spring.autoconfigure.redis;

import io.guard.spring.autoconfigure.GuardProperties;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * {@code guard.rate-limit.backend=redis} with the plain {@code org.redisson:redisson} jar and no client of the
 * application's own: Guard makes a lazy client from {@code spring.data.redis.*} (see {@link GuardRedissonClients}).
 * Imported before {@link GuardRateLimiterBackendConfiguration}, whose conditions look for the client. An application
 * with Spring Data Redis's connection factory gets no second client: the backend then goes through that factory.
 *
 * <p>Internal: public for the auto-configuration, which imports it; not an API.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.redisson.Redisson")
@ConditionalOnMissingBean(type = {"org.redisson.api.RedissonClient",
        "org.springframework.data.redis.connection.RedisConnectionFactory"})
@ConditionalOnProperty(prefix = "guard.rate-limit", name = "backend", havingValue = "redis")
public class GuardRedissonClientConfiguration {

    /**
     * In {@code guard.rate-limit.redis.database} when it is set: the client is Guard's alone. Takes the properties so
     * that their one check (a negative database included) runs first.
     */
    @Bean(destroyMethod = "shutdown")
    RedissonClient guardRedissonClient(Environment environment, GuardProperties checkedFirst) {
        return GuardRedissonClients.create(Binder.get(environment),
                checkedFirst.getRateLimit().getRedis().getDatabase());
    }
}
