package io.guard.spring.autoconfigure;

import io.guard.spring.autoconfigure.redis.GuardRateLimiterBackendConfiguration;
import io.guard.spring.autoconfigure.redis.GuardRedissonClientConfiguration;
import io.guard.spring.autoconfigure.report.GuardPropertiesCheck;
import io.guard.spring.autoconfigure.report.UnusedInstancesWarning;
import io.guard.breaker.CircuitBreakerConfig;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.bulkhead.BulkheadRegistry;
import io.guard.spring.aop.GuardAdvisors;
import io.guard.spring.method.GuardAnnotationValidator;
import io.guard.spring.method.GuardedMethods;
import io.guard.spring.observation.GuardObservations;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.ratelimit.MissingKeyPolicy;
import io.guard.spring.ratelimit.RateLimitDecisionSinks;
import io.guard.time.CallbackTimer;
import io.guard.time.GuardClock;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.ratelimit.GuardLeases;
import io.guard.spring.ratelimit.RateLimitQuotas;
import io.guard.ratelimit.LimitOverrideStore;
import io.guard.ratelimit.local.LocalLimitOverrideStore;
import org.springframework.aop.Advisor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * Guard for Spring Boot: the breaker and limiter registries, the rate-limit backend (Redis behind a failover
 * decorator when a {@code RedissonClient} bean exists, else in process), the two aspects, start-up validation of every annotation, and HTTP answers for Spring
 * MVC and WebFlux. {@code guard.enabled=false} turns all of it off; every bean a user may replace backs off when the
 * user defines one of the same type.
 *
 * <p>The advisors are created while other beans are proxied, so they are static and resolve what they need on the
 * first call; the catalog of annotations is validated once every singleton exists.
 */
// After Redisson's auto-configuration on either Boot line (V4 on Boot 4, V2 on Boot 3), so its client is found.
// After Spring Boot's own Redis auto-configuration too (Boot 4 and Boot 3 names), so its factory is found.
@AutoConfiguration(afterName = {"org.redisson.spring.starter.RedissonAutoConfigurationV4",
        "org.redisson.spring.starter.RedissonAutoConfigurationV2",
        "org.redisson.spring.starter.RedissonAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
        // and after the ObservationRegistry's (Boot 4 and Boot 3 names), which observations need
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"})
@ConditionalOnProperty(prefix = "guard", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(GuardProperties.class)
@Import({GuardAutoProxyRegistrar.class, GuardRedissonClientConfiguration.class,
        GuardRateLimiterBackendConfiguration.class, GuardWebMvcConfiguration.class, GuardWebFluxConfiguration.class,
        GuardRoutesConfiguration.class, GuardServerLimitConfiguration.class, GuardRefreshConfiguration.class,
        GuardObservationConfiguration.class, GuardResilientMethodsConfiguration.class})
public class GuardAutoConfiguration {

    /**
     * Guard's one timer: breakers' timed transitions and timeouts, the rate-limit decisions' timeouts, waiting
     * acquires and the overrides' re-read. Its one thread only keeps time; what falls due runs on a bounded pool of
     * callback threads, so a slow callback never delays another's timeout.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public CallbackTimer guardTimer() {
        return new CallbackTimer(TIMER_THREAD, CALLBACK_THREADS, CallbackTimer.DEFAULT_CALLBACK_THREADS);
    }

    /** The timer's thread; its callback threads are {@code guard-callback-1}, {@code -2}, ... */
    static final String TIMER_THREAD = "guard-timer";
    static final String CALLBACK_THREADS = "guard-callback";

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public CircuitBreakerRegistry guardCircuitBreakerRegistry(GuardProperties properties, CallbackTimer guardTimer) {
        CircuitBreakerProperties breakers = properties.getCircuitBreaker();
        CircuitBreakerConfig defaults = CircuitBreakerConfigs.defaults(breakers);
        // Every value was checked when GuardProperties was bound (GuardPropertiesCheck)
        return CircuitBreakerRegistry.builder()
                .defaults(defaults)
                .instances(CircuitBreakerConfigs.instances(breakers, defaults))
                .maxBreakers(breakers.getMaxBreakers())
                .eventBufferSize(properties.getEvents().getBufferSize())
                .scheduler(guardTimer)
                .build();
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public RateLimiterRegistry guardRateLimiterRegistry(RateLimiter guardRateLimiter, GuardProperties properties,
                                                        CallbackTimer guardTimer) {
        return new RateLimiterRegistry(guardRateLimiter, Clock.systemUTC(), properties.getEvents().getBufferSize(),
                guardTimer);
    }

    /** What this instance leases: each limit's lease size, and the leasing limiter on the Redis backend. */
    @Bean
    @ConditionalOnMissingBean
    public GuardLeases guardLeases() {
        return new GuardLeases();
    }

    /** One key's quota by limit name, read or reset: for applications' support tools and the actuator. */
    @Bean
    @ConditionalOnMissingBean
    public RateLimitQuotas guardRateLimitQuotas(RateLimiterRegistry limiters) {
        return new RateLimitQuotas(limiters);
    }

    @Bean
    @ConditionalOnMissingBean
    public GuardedMethods guardedMethods(ConfigurableListableBeanFactory beanFactory, GuardProperties properties,
                                         CircuitBreakerRegistry breakers, LiveLimits limiters,
                                         BulkheadRegistry bulkheads, GuardLeases leases) {
        RateLimitProperties limits = properties.getRateLimit();
        BreakerBulkheads breakerBulkheads = new BreakerBulkheads(properties.getCircuitBreaker(), bulkheads);
        return new GuardedMethods(beanFactory, limits::instanceSettings, limits::instanceTiers,
                limits.getDefaults().toSettings(),
                breakers::circuitBreaker, breakerBulkheads::bulkhead, limiters::configure, leases::resolved);
    }

    /** Run-time overrides kept in process, when the backend keeps none of its own (Redis does). */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public LimitOverrideStore guardLimitOverrideStore() {
        return new LocalLimitOverrideStore();
    }

    /** The configured limits with the operators' overrides on top: what every call is decided under. */
    @Bean(initMethod = "start", destroyMethod = "close")
    @ConditionalOnMissingBean
    public LiveLimits guardLiveLimits(RateLimiterRegistry limiters, LimitOverrideStore store,
                                      GuardProperties properties, CallbackTimer guardTimer) {
        // guard.rate-limit.override-poll-interval is checked with every other value (PropertyMistakes)
        return new LiveLimits(limiters, store, Clock.systemUTC(), properties.getRateLimit().getOverridePollInterval(),
                Duration.ofSeconds(5), guardTimer);
    }

    /**
     * The bulkheads of {@code @CircuitBreaker} methods that set max-concurrent-calls, one per breaker name, and the
     * server-wide limit's ({@code guard.server-limit}).
     */
    @Bean
    @ConditionalOnMissingBean
    public BulkheadRegistry guardBulkheadRegistry(GuardProperties properties) {
        return new BulkheadRegistry(1, Map.of(), properties.getCircuitBreaker().getMaxBreakers(), GuardClock.system(),
                properties.getEvents().getBufferSize());
    }

    @Bean
    UnusedInstancesWarning guardUnusedInstancesWarning(GuardProperties properties, CircuitBreakerRegistry breakers,
                                                       RateLimiterRegistry limiters) {
        return new UnusedInstancesWarning(properties, breakers, limiters);
    }

    /** Every bad guard.* value in one start-up failure, before anything is built from them. */
    @Bean
    static GuardPropertiesCheck guardPropertiesCheck(Environment environment) {
        return new GuardPropertiesCheck(environment);
    }

    @Bean
    public static GuardAnnotationValidator guardAnnotationValidator(ConfigurableListableBeanFactory beanFactory,
                                                                    ObjectProvider<GuardedMethods> methods) {
        return new GuardAnnotationValidator(beanFactory, methods::getObject);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static Advisor guardRateLimitAdvisor(ObjectProvider<GuardedMethods> methods,
                                                ObjectProvider<RateLimiterRegistry> limiters,
                                                ObjectProvider<RateLimitDecisionSinks> sinks,
                                                ObjectProvider<LiveLimits> live,
                                                ObjectProvider<GuardObservations> observations,
                                                Environment environment) {
        Binder binder = Binder.get(environment);
        int order = binder.bind("guard.rate-limit.aspect-order", Integer.class)
                .orElse(new RateLimitProperties().getAspectOrder());
        MissingKeyPolicy missingKey = binder.bind("guard.rate-limit.missing-key", MissingKeyPolicy.class)
                .orElse(MissingKeyPolicy.REJECT);
        return GuardAdvisors.rateLimitAdvisor(methods::getObject, limiters::getObject, live::getIfAvailable, missingKey,
                new CompositeDecisionSinks(sinks), observations::getIfAvailable, order);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static Advisor guardCircuitBreakerAdvisor(ObjectProvider<GuardedMethods> methods,
                                                     ObjectProvider<GuardObservations> observations,
                                                     Environment environment) {
        int order = Binder.get(environment).bind("guard.circuit-breaker.aspect-order", Integer.class)
                .orElse(new CircuitBreakerProperties().getAspectOrder());
        return GuardAdvisors.circuitBreakerAdvisor(methods::getObject, observations::getIfAvailable, order);
    }
}
