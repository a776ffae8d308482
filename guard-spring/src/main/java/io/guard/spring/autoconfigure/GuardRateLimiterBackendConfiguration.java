package io.guard.spring.autoconfigure;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.ratelimit.redis.RedisRateLimiter;
import io.guard.spring.autoconfigure.RateLimitProperties.Backend;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotatedTypeMetadata;

import java.time.Clock;
import java.util.UUID;

/**
 * Chooses where limits are counted: Redis when a {@code RedissonClient} bean exists (and the backend is not forced to
 * {@code local}), else in process. The two choices exclude each other by their conditions, and both back off when
 * the user defines a {@link RateLimiter}.
 */
@Configuration(proxyBeanMethods = false)
@Import({GuardRateLimiterBackendConfiguration.Redis.class, GuardRateLimiterBackendConfiguration.Local.class})
class GuardRateLimiterBackendConfiguration {

    private static final Logger log = LoggerFactory.getLogger(GuardRateLimiterBackendConfiguration.class);

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.redisson.api.RedissonClient")
    @ConditionalOnBean(type = "org.redisson.api.RedissonClient")
    @Conditional(NotForcedLocal.class)
    static class Redis {

        /** The breaker that watches Redis for the failover decorator; visible like any other breaker. */
        static final String BACKEND_BREAKER = "guard-rate-limit-backend";

        /**
         * Redis behind each policy's {@code on-backend-failure}: an outage is answered by FAIL_OPEN, FAIL_CLOSED
         * (503) or an in-process decision, and a breaker keeps it from costing a timeout per call.
         */
        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        RateLimiter guardRateLimiter(RedissonClient redisson, GuardProperties properties,
                                     CircuitBreakerRegistry breakers) {
            Clock clock = Clock.systemUTC();
            var redis = new RedisRateLimiter(redisson, clock, properties.getRateLimit().getKeyPrefix(),
                    UUID.randomUUID().toString());
            return new FailoverRateLimiter(redis, new LocalRateLimiter(clock),
                    breakers.circuitBreaker(BACKEND_BREAKER, FailoverRateLimiter.recommendedBreakerConfig()), clock);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional(NoRedissonOrForcedLocal.class)
    static class Local {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        RateLimiter guardRateLimiter(GuardProperties properties) {
            Backend backend = properties.getRateLimit().getBackend();
            if (backend == Backend.REDIS) {
                throw new GuardPropertiesException("guard.rate-limit.backend",
                        "is 'redis' but the application has no RedissonClient bean",
                        "Add org.redisson:redisson-spring-boot-starter and point spring.data.redis.* at your Redis, "
                                + "or set guard.rate-limit.backend=local for limits counted per instance.");
            }
            if (backend == Backend.AUTO) {
                log.warn("Guard found no RedissonClient bean: rate limits are counted in this process, so every "
                        + "instance of the service has its own quota. Add redisson-spring-boot-starter for limits "
                        + "shared by all instances, or set guard.rate-limit.backend=local to choose this knowingly.");
            }
            return new LocalRateLimiter(Clock.systemUTC());
        }
    }

    /** Matches without a RedissonClient bean, or when {@code guard.rate-limit.backend=local}. */
    static class NoRedissonOrForcedLocal extends AnyNestedCondition {

        NoRedissonOrForcedLocal() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnMissingBean(type = "org.redisson.api.RedissonClient")
        static class NoRedisson {
        }

        @ConditionalOnProperty(prefix = "guard.rate-limit", name = "backend", havingValue = "local")
        static class ForcedLocal {
        }
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
