package io.guard.spring.autoconfigure.redis;

import io.guard.breaker.BreakerStateStore;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.redis.RedisBreakerStateStore;
import io.guard.ratelimit.redis.ScriptConnection;
import io.guard.spring.autoconfigure.CircuitBreakerProperties;
import io.guard.spring.autoconfigure.GuardProperties;
import io.guard.spring.autoconfigure.redis.BackendChoice.RedisClient;
import io.guard.spring.breaker.FleetBreakers;
import io.guard.time.CallbackTimer;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import java.time.Clock;
import java.time.Duration;

/**
 * Fleet-wide breaker control ({@code guard.circuit-breaker.fleet.enabled=true}): the breakers' fleet-wide commands
 * kept in Redis beside the limits' overrides, on the same {@link ScriptConnection}. Without it no bean listens, so an
 * instance that has not enabled fleet control ignores the commands of the others. It needs Redis: with the
 * in-process backend the start-up report names the setting (WiringMistakes) instead of doing nothing.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "guard.circuit-breaker.fleet", name = "enabled", havingValue = "true")
@Import(GuardFleetBreakersConfiguration.Redis.class)
class GuardFleetBreakersConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBackendChoice({RedisClient.REDISSON, RedisClient.SPRING_DATA_LETTUCE})
    static class Redis {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        BreakerStateStore guardBreakerStateStore(ScriptConnection scripts, GuardProperties properties) {
            return new RedisBreakerStateStore(scripts, properties.getRateLimit().getKeyPrefix());
        }

        /** The poll interval was checked with every other value (PropertyMistakes). */
        @Bean(initMethod = "start", destroyMethod = "close")
        @ConditionalOnMissingBean
        FleetBreakers guardFleetBreakers(CircuitBreakerRegistry breakers, BreakerStateStore store,
                                         GuardProperties properties, CallbackTimer guardTimer,
                                         Environment environment) {
            CircuitBreakerProperties.Fleet fleet = properties.getCircuitBreaker().getFleet();
            return new FleetBreakers(breakers, store, instanceId(fleet, environment), Clock.systemUTC(),
                    fleet.getPollInterval(), Duration.ofSeconds(5), guardTimer,
                    properties.getCircuitBreaker()::shareOpen);
        }
    }

    /** {@code guard.circuit-breaker.fleet.instance-id}, else {@code <spring.application.name>@<HOSTNAME>:<pid>}. */
    static String instanceId(CircuitBreakerProperties.Fleet fleet, Environment environment) {
        if (fleet.getInstanceId() != null && !fleet.getInstanceId().isBlank()) {
            return fleet.getInstanceId().trim();
        }
        String application = environment.getProperty("spring.application.name", "application");
        String host = System.getenv("HOSTNAME");
        return application + (host == null || host.isBlank() ? "" : "@" + host) + ":" + ProcessHandle.current().pid();
    }
}
