package io.guard.spring.breaker;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.spring.actuate.GuardEndpoint;
import io.guard.spring.actuate.GuardEndpointAutoConfiguration;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Fleet-wide control while Redis is down: every instance goes on deciding alone with the state it had, a fleet-wide
 * command fails within its bound and changes nothing, a change on one instance stays there, and an instance starts
 * anyway; once Redis is back (empty, as a restarted server without persistence) commands reach every instance again.
 * Spring Data Redis (Lettuce), which connects on first use, so that an instance may start while Redis is down.
 */
class FleetBreakersWithoutRedisIT {

    /** The longest a fleet-wide command waits for Redis (the store timeout, 5 s), with room for a loaded machine. */
    private static final Duration COMMAND_BOUND = Duration.ofSeconds(10);
    private static final Duration START_BOUND = Duration.ofSeconds(20);
    private static final Duration RECOVERY_BOUND = Duration.ofSeconds(30);

    private static DedicatedRedis redis;

    @BeforeAll
    static void startRedis() {
        redis = RedisServers.startDedicated();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @Test
    void eachInstanceDecidesAloneWhileRedisIsDownAndNothingWaitsForIt() {
        runner("a").run(a -> runner("b").run(b -> {
            breaker(a, "payments");
            breaker(b, "payments");
            endpoint(a).changeState("payments", "FORCED_OPEN", null, null, null, null, "fleet");
            await().atMost(RECOVERY_BOUND).until(() -> state(b, "payments") == State.FORCED_OPEN);

            redis.stop();

            long sent = System.nanoTime();
            assertThatThrownBy(() -> endpoint(b).changeState("payments", "CLOSED", null, null, null, null, "fleet"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("breaker state store");
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(COMMAND_BOUND);
            assertThat(state(a, "payments")).as("nothing applied").isEqualTo(State.FORCED_OPEN);
            assertThat(state(b, "payments")).as("nothing applied").isEqualTo(State.FORCED_OPEN);

            endpoint(b).changeState("payments", "CLOSED");
            assertThat(breakers(b).circuitBreaker("payments").tryAcquire()).as("b decides alone").isNotNull();
            assertThat(breakers(a).circuitBreaker("payments").tryAcquire()).as("a decides alone").isNull();

            long starting = System.nanoTime();
            runner("c").run(c -> {
                assertThat(c).hasNotFailed();
                assertThat(Duration.ofNanos(System.nanoTime() - starting)).isLessThan(START_BOUND);
                breaker(c, "payments");
                assertThat(state(c, "payments")).isEqualTo(State.CLOSED);

                redis.start();
                endpoint(c).changeState("payments", "DISABLED", null, null, null, null, "fleet");
                for (ApplicationContext instance : new ApplicationContext[] {a, b, c}) {
                    await().atMost(RECOVERY_BOUND).until(() -> state(instance, "payments") == State.DISABLED);
                }
            });
        }));
    }

    private static ApplicationContextRunner runner(String id) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                        AutoConfigs.type("DataRedisAutoConfiguration|RedisAutoConfiguration"),
                        GuardAutoConfiguration.class, EndpointAutoConfiguration.class,
                        GuardEndpointAutoConfiguration.class))
                .withPropertyValues("guard.rate-limit.redis.client=spring-data",
                        "spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
                        "spring.data.redis.timeout=1s", "guard.rate-limit.key-prefix=fleet-down:",
                        // Redis may be down at start on purpose: wait 1 s for the warm-up rather than the default 5 s
                        "guard.rate-limit.redis.warm-up-timeout=1s",
                        "guard.circuit-breaker.fleet.enabled=true", "guard.circuit-breaker.fleet.instance-id=" + id,
                        "guard.circuit-breaker.fleet.poll-interval=1s",
                        "management.endpoints.jmx.exposure.include=guard",
                        "management.endpoints.web.exposure.include=guard");
    }

    private static CircuitBreakerRegistry breakers(ApplicationContext instance) {
        return instance.getBean(CircuitBreakerRegistry.class);
    }

    private static void breaker(ApplicationContext instance, String name) {
        breakers(instance).circuitBreaker(name);
    }

    private static State state(ApplicationContext instance, String name) {
        return breakers(instance).circuitBreaker(name).state();
    }

    private static GuardEndpoint endpoint(ApplicationContext instance) {
        return instance.getBean(GuardEndpoint.class);
    }
}
