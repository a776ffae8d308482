package io.guard.spring.autoconfigure.redis;

import io.guard.spring.autoconfigure.GuardProperties;
import io.guard.spring.autoconfigure.RateLimitProperties;
import io.guard.spring.autoconfigure.report.GuardPropertiesException;
import io.guard.breaker.CircuitBreakerConfig;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.lease.LeasingRateLimiter;
import io.guard.spring.ratelimit.GuardLeases;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.time.CallbackTimer;
import io.guard.ratelimit.redis.LettuceScriptConnection;
import io.guard.ratelimit.redis.RedisRateLimiter;
import io.guard.ratelimit.redis.RedisLimitOverrideStore;
import io.guard.ratelimit.LimitOverrideStore;
import io.guard.ratelimit.redis.RedissonScriptConnection;
import io.guard.ratelimit.redis.ScriptConnection;
import io.guard.spring.autoconfigure.redis.BackendChoice.RedisClient;
import io.guard.spring.autoconfigure.RateLimitProperties.Backend;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

/**
 * Chooses where limits are counted and, for Redis, which client runs the scripts: a {@code RedissonClient} bean if
 * there is one, else Spring Data Redis's {@code RedisConnectionFactory} (Lettuce), else in process with a warning;
 * {@code guard.rate-limit.redis.client} picks the client explicitly. The client becomes a {@link ScriptConnection}
 * bean, the Redis backend is built on whichever exists, and everything backs off when the user defines a
 * {@link RateLimiter} (or a {@link ScriptConnection}). The choice is {@link BackendChoice}'s, made once; the nested
 * configurations only ask for it ({@link ConditionalOnBackendChoice}) and guard class loading with
 * {@code @ConditionalOnClass}.
 *
 * <p>Internal: public for the auto-configuration, which imports it, and the start-up report, which looks for the
 * beans of {@link Local}, {@link SpringDataScripts} and {@link RedissonScripts}; not an API.
 */
@Configuration(proxyBeanMethods = false)
@Import({GuardRateLimiterBackendConfiguration.Redis.class, GuardRateLimiterBackendConfiguration.RedisOverrides.class,
        GuardRateLimiterBackendConfiguration.Local.class, GuardFleetBreakersConfiguration.class})
public class GuardRateLimiterBackendConfiguration {

    private static final Logger log = LoggerFactory.getLogger(GuardRateLimiterBackendConfiguration.class);

    /** What to do about a factory that is not Lettuce's: the start-up report's and the bean's own refusal. */
    public static final String NOT_LETTUCE_ACTION = "Use Spring Data Redis with Lettuce (Spring Boot's default), add a "
            + "RedissonClient, or set guard.rate-limit.backend=local.";

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.redisson.api.RedissonClient")
    @ConditionalOnBackendChoice(RedisClient.REDISSON)
    public static class RedissonScripts {

        @Bean
        @ConditionalOnMissingBean
        ScriptConnection guardScriptConnection(RedissonClient redisson) {
            return RedissonScriptConnection.of(redisson);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.data.redis.connection.RedisConnectionFactory",
            "io.lettuce.core.RedisClient"})
    @ConditionalOnBackendChoice(RedisClient.SPRING_DATA_LETTUCE)
    public static class SpringDataScripts {

        /** Takes the properties so that their one check (a factory known not to be Lettuce's included) runs first. */
        @Bean
        @ConditionalOnMissingBean
        ScriptConnection guardScriptConnection(GuardProperties checkedFirst, RedisConnectionFactory factory) {
            Integer database = checkedFirst.getRateLimit().getRedis().getDatabase();
            if (factory instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware()) {
                RedisDatabases.checkNotCluster(database);
            }
            try {
                return LettuceScriptConnection.of(factory, database);
            } catch (IllegalArgumentException e) {
                // A factory declared by its interface: what start-up could not see before it was built.
                throw new GuardPropertiesException("guard.rate-limit.redis.client", e.getMessage(),
                        NOT_LETTUCE_ACTION);
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBackendChoice({RedisClient.REDISSON, RedisClient.SPRING_DATA_LETTUCE})
    @Import({RedissonScripts.class, SpringDataScripts.class})
    static class Redis {

        /** The breaker that watches Redis for the failover decorator; visible like any other breaker. */
        static final String BACKEND_BREAKER = "guard-rate-limit-backend";

        /**
         * Waits, while the application starts and within a bound, for the Redis connection to be warm. The bound was
         * checked with every other value (PropertyMistakes).
         */
        @Bean
        RedisWarmUp guardRedisWarmUp(GuardProperties properties) {
            return new RedisWarmUp(properties.getRateLimit().getRedis().getWarmUpTimeout());
        }

        /**
         * Redis behind each policy's {@code on-backend-failure}: an outage is answered by FAIL_OPEN, FAIL_CLOSED
         * (503) or an in-process decision, and a breaker keeps it from costing a timeout per call.
         */
        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        RateLimiter guardRateLimiter(ScriptConnection scripts, GuardProperties properties,
                                     CircuitBreakerRegistry breakers, RedisWarmUp warmUp, CallbackTimer guardTimer,
                                     GuardLeases leasing) {
            Clock clock = Clock.systemUTC();
            RateLimitProperties rateLimit = properties.getRateLimit();
            var redis = new RedisRateLimiter(scripts, clock, rateLimit.getKeyPrefix(), UUID.randomUUID().toString(),
                    RedisRateLimiter.DEFAULT_REFUSAL_CACHE_SIZE, rateLimit.getRedis().getMaxBatch());
            log.info("Guard counts rate limits in Redis through {}", scripts.clientName());
            warmUp.begin(redis); // while the application starts; waited for (within a bound) before it serves
            // Below the failover, so that taking a lease is a round trip it times and a lease in hand is not. Always
            // in place: an annotation may lease, known only once its method is resolved; an exact limit costs one
            // map lookup here on its way to Redis.
            LeasingRateLimiter leased = new LeasingRateLimiter(redis, redis.leases(), leasing::leaseSize, guardTimer);
            leasing.use(leased, ConfiguredLeases.of(properties));
            return new FailoverRateLimiter(leased, new LocalRateLimiter(clock),
                    breakers.circuitBreaker(BACKEND_BREAKER, backendBreakerConfig(properties, breakers)), clock,
                    guardTimer);
        }

        /**
         * The recommended configuration, or the application's own {@code guard.circuit-breaker.instances.}
         * {@value #BACKEND_BREAKER} if it has one; either way the breaker's timeout is
         * {@code guard.rate-limit.redis.timeout}, which bounds every decision (checked with every other value,
         * see PropertyMistakes).
         */
        static CircuitBreakerConfig backendBreakerConfig(GuardProperties properties, CircuitBreakerRegistry breakers) {
            Duration timeout = properties.getRateLimit().getRedis().getTimeout();
            if (properties.getCircuitBreaker().getInstances().containsKey(BACKEND_BREAKER)) {
                return breakers.configFor(BACKEND_BREAKER).toBuilder().timeout(timeout).build();
            }
            return FailoverRateLimiter.recommendedBreakerConfig(timeout);
        }
    }

    /** Overrides in Redis, next to the quotas, so that one override applies to every instance. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBackendChoice({RedisClient.REDISSON, RedisClient.SPRING_DATA_LETTUCE})
    static class RedisOverrides {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        LimitOverrideStore guardLimitOverrideStore(ScriptConnection scripts, GuardProperties properties) {
            return new RedisLimitOverrideStore(scripts, properties.getRateLimit().getKeyPrefix());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBackendChoice(RedisClient.NONE)
    public static class Local {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        RateLimiter guardRateLimiter(GuardProperties properties) {
            // A client or backend=redis chosen without its bean stopped start-up before (WiringMistakes).
            if (properties.getRateLimit().getBackend() == Backend.AUTO) {
                log.warn("Guard found no RedissonClient or RedisConnectionFactory bean: rate limits are counted in "
                        + "this process, so every instance of the service has its own quota. For limits shared by all "
                        + "instances add org.redisson:redisson and set guard.rate-limit.backend=redis (or use "
                        + "spring-boot-starter-data-redis), or set guard.rate-limit.backend=local to choose this "
                        + "knowingly.");
            }
            return new LocalRateLimiter(Clock.systemUTC());
        }
    }
}
