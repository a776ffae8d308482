package io.guard.spring.autoconfigure;

import io.guard.breaker.CircuitBreakerConfig;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.ratelimit.redis.LettuceScriptConnection;
import io.guard.ratelimit.redis.RedisRateLimiter;
import io.guard.ratelimit.redis.RedisLimitOverrideStore;
import io.guard.ratelimit.LimitOverrideStore;
import io.guard.ratelimit.redis.RedissonScriptConnection;
import io.guard.ratelimit.redis.ScriptConnection;
import io.guard.spring.autoconfigure.RateLimitProperties.Backend;
import io.guard.spring.autoconfigure.RateLimitRedisProperties.Client;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

/**
 * Chooses where limits are counted and, for Redis, which client runs the scripts: a {@code RedissonClient} bean if
 * there is one, else Spring Data Redis's {@code RedisConnectionFactory} (Lettuce), else in process with a warning;
 * {@code guard.rate-limit.redis.client} picks the client explicitly. The client becomes a {@link ScriptConnection}
 * bean, the Redis backend is built on whichever exists, and everything backs off when the user defines a
 * {@link RateLimiter} (or a {@link ScriptConnection}).
 */
@Configuration(proxyBeanMethods = false)
@Import({GuardRateLimiterBackendConfiguration.Redis.class, GuardRateLimiterBackendConfiguration.RedisOverrides.class,
        GuardRateLimiterBackendConfiguration.Local.class})
class GuardRateLimiterBackendConfiguration {

    private static final Logger log = LoggerFactory.getLogger(GuardRateLimiterBackendConfiguration.class);

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.redisson.api.RedissonClient")
    @ConditionalOnBean(type = "org.redisson.api.RedissonClient")
    @Conditional({NotForcedLocal.class, ClientIsRedisson.class})
    static class RedissonScripts {

        @Bean
        @ConditionalOnMissingBean
        ScriptConnection guardScriptConnection(RedissonClient redisson) {
            return RedissonScriptConnection.of(redisson);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.data.redis.connection.RedisConnectionFactory",
            "io.lettuce.core.RedisClient"})
    @ConditionalOnBean(type = "org.springframework.data.redis.connection.RedisConnectionFactory")
    @Conditional({NotForcedLocal.class, ClientIsSpringData.class})
    static class SpringDataScripts {

        @Bean
        @ConditionalOnMissingBean
        ScriptConnection guardScriptConnection(RedisConnectionFactory factory) {
            try {
                return LettuceScriptConnection.of(factory);
            } catch (IllegalArgumentException e) {
                throw new GuardPropertiesException("guard.rate-limit.redis.client", e.getMessage(),
                        "Use Spring Data Redis with Lettuce (Spring Boot's default), add a RedissonClient, or set "
                                + "guard.rate-limit.backend=local.");
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional({NotForcedLocal.class, RedisClientAvailable.class})
    @Import({RedissonScripts.class, SpringDataScripts.class})
    static class Redis {

        /** The breaker that watches Redis for the failover decorator; visible like any other breaker. */
        static final String BACKEND_BREAKER = "guard-rate-limit-backend";

        /**
         * Redis behind each policy's {@code on-backend-failure}: an outage is answered by FAIL_OPEN, FAIL_CLOSED
         * (503) or an in-process decision, and a breaker keeps it from costing a timeout per call.
         */
        /** Waits, while the application starts and within a bound, for the Redis connection to be warm. */
        @Bean
        RedisWarmUp guardRedisWarmUp(GuardProperties properties) {
            Duration timeout = properties.getRateLimit().getRedis().getWarmUpTimeout();
            if (timeout == null || timeout.isNegative()) {
                throw new GuardPropertiesException("guard.rate-limit.redis.warm-up-timeout", "is '" + timeout
                        + "' but must be zero or positive: it bounds how long start-up waits for Redis",
                        "Set a duration, e.g. guard.rate-limit.redis.warm-up-timeout=5s (the default), or 0 not to "
                                + "wait.");
            }
            return new RedisWarmUp(timeout);
        }

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        RateLimiter guardRateLimiter(ScriptConnection scripts, GuardProperties properties,
                                     CircuitBreakerRegistry breakers, RedisWarmUp warmUp) {
            Clock clock = Clock.systemUTC();
            RateLimitProperties rateLimit = properties.getRateLimit();
            var redis = new RedisRateLimiter(scripts, clock, rateLimit.getKeyPrefix(), UUID.randomUUID().toString(),
                    RedisRateLimiter.DEFAULT_REFUSAL_CACHE_SIZE, rateLimit.getRedis().getMaxBatch());
            log.info("Guard counts rate limits in Redis through {}", scripts.clientName());
            warmUp.begin(redis); // while the application starts; waited for (within a bound) before it serves
            return new FailoverRateLimiter(redis, new LocalRateLimiter(clock),
                    breakers.circuitBreaker(BACKEND_BREAKER, backendBreakerConfig(properties, breakers)), clock);
        }

        /**
         * The recommended configuration, or the application's own {@code guard.circuit-breaker.instances.}
         * {@value #BACKEND_BREAKER} if it has one; either way the breaker's timeout is
         * {@code guard.rate-limit.redis.timeout}, which bounds every decision.
         */
        static CircuitBreakerConfig backendBreakerConfig(GuardProperties properties, CircuitBreakerRegistry breakers) {
            Duration timeout = properties.getRateLimit().getRedis().getTimeout();
            if (timeout == null || timeout.isZero() || timeout.isNegative()) {
                throw new GuardPropertiesException("guard.rate-limit.redis.timeout", "is '" + timeout
                        + "' but must be positive: it bounds how long a decision waits for Redis",
                        "Set a positive duration, e.g. guard.rate-limit.redis.timeout=250ms (the default).");
            }
            if (properties.getCircuitBreaker().getInstances().containsKey(BACKEND_BREAKER)) {
                return breakers.configFor(BACKEND_BREAKER).toBuilder().timeout(timeout).build();
            }
            return FailoverRateLimiter.recommendedBreakerConfig(timeout);
        }
    }

    /** Overrides in Redis, next to the quotas, so that one override applies to every instance. */
    @Configuration(proxyBeanMethods = false)
    @Conditional({NotForcedLocal.class, RedisClientAvailable.class})
    static class RedisOverrides {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        LimitOverrideStore guardLimitOverrideStore(ScriptConnection scripts, GuardProperties properties) {
            return new RedisLimitOverrideStore(scripts, properties.getRateLimit().getKeyPrefix());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional(NoRedisClientOrForcedLocal.class)
    static class Local {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        RateLimiter guardRateLimiter(GuardProperties properties) {
            Backend backend = properties.getRateLimit().getBackend();
            Client client = properties.getRateLimit().getRedis().getClient();
            if (backend != Backend.LOCAL && client != Client.AUTO) {
                String bean = client == Client.REDISSON ? "RedissonClient" : "RedisConnectionFactory";
                throw new GuardPropertiesException("guard.rate-limit.redis.client",
                        "is '" + client.name().toLowerCase().replace('_', '-') + "' but the application has no "
                                + bean + " bean",
                        "Add the client's Spring Boot starter (redisson-spring-boot-starter or "
                                + "spring-boot-starter-data-redis), or set guard.rate-limit.redis.client=auto.");
            }
            if (backend == Backend.REDIS) {
                throw new GuardPropertiesException("guard.rate-limit.backend",
                        "is 'redis' but the application has no RedissonClient or RedisConnectionFactory bean",
                        "Add org.redisson:redisson (Guard then connects to the Redis that spring.data.redis.* names) "
                                + "or spring-boot-starter-data-redis, or set guard.rate-limit.backend=local for "
                                + "limits counted per instance.");
            }
            if (backend == Backend.AUTO) {
                log.warn("Guard found no RedissonClient or RedisConnectionFactory bean: rate limits are counted in "
                        + "this process, so every instance of the service has its own quota. For limits shared by all "
                        + "instances add org.redisson:redisson and set guard.rate-limit.backend=redis (or use "
                        + "spring-boot-starter-data-redis), or set guard.rate-limit.backend=local to choose this "
                        + "knowingly.");
            }
            return new LocalRateLimiter(Clock.systemUTC());
        }
    }

    /** Matches when a client the {@code guard.rate-limit.redis.client} property allows has a bean. */
    static class RedisClientAvailable extends AnyNestedCondition {

        RedisClientAvailable() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnClass(name = "org.redisson.api.RedissonClient")
        @ConditionalOnBean(type = "org.redisson.api.RedissonClient")
        @Conditional(ClientIsRedisson.class)
        static class Redisson {
        }

        @ConditionalOnClass(name = {"org.springframework.data.redis.connection.RedisConnectionFactory",
                "io.lettuce.core.RedisClient"})
        @ConditionalOnBean(type = "org.springframework.data.redis.connection.RedisConnectionFactory")
        @Conditional(ClientIsSpringData.class)
        static class SpringData {
        }
    }

    /** Matches when no client the property allows has a bean. */
    static class NoRedisClient extends NoneNestedConditions {

        NoRedisClient() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @Conditional(RedisClientAvailable.class)
        static class Available {
        }
    }

    /** Matches without a Redis client for Guard's scripts, or when {@code guard.rate-limit.backend=local}. */
    static class NoRedisClientOrForcedLocal extends AnyNestedCondition {

        NoRedisClientOrForcedLocal() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @Conditional(NoRedisClient.class)
        static class Missing {
        }

        @ConditionalOnProperty(prefix = "guard.rate-limit", name = "backend", havingValue = "local")
        static class ForcedLocal {
        }
    }

    /** Matches when {@code guard.rate-limit.redis.client} is auto or redisson. */
    static class ClientIsRedisson extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Client client = client(context);
            return client == Client.SPRING_DATA ? ConditionOutcome.noMatch("guard.rate-limit.redis.client is spring-data")
                    : ConditionOutcome.match("guard.rate-limit.redis.client is " + client);
        }
    }

    /** Matches when {@code guard.rate-limit.redis.client} is auto or spring-data. */
    static class ClientIsSpringData extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Client client = client(context);
            return client == Client.REDISSON ? ConditionOutcome.noMatch("guard.rate-limit.redis.client is redisson")
                    : ConditionOutcome.match("guard.rate-limit.redis.client is " + client);
        }
    }

    private static Client client(ConditionContext context) {
        return Binder.get(context.getEnvironment()).bind("guard.rate-limit.redis.client", Client.class)
                .orElse(Client.AUTO);
    }

    /** Matches unless {@code guard.rate-limit.backend=local}. */
    static class NotForcedLocal extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Backend backend = Binder.get(context.getEnvironment())
                    .bind("guard.rate-limit.backend", Backend.class).orElse(Backend.AUTO);
            return backend == Backend.LOCAL
                    ? ConditionOutcome.noMatch("guard.rate-limit.backend is local")
                    : ConditionOutcome.match("guard.rate-limit.backend is " + backend.name().toLowerCase());
        }
    }
}
