package io.guard.spring.reliability;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.AutoConfigs;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 12 item 3, "no Redis, no start-up": an application starts while its Redis is down, whichever client it
 * brings, decides by each limit's failure policy meanwhile, and once Redis is up two instances (two contexts) share
 * one quota again. The clients are at their default settings, except Redisson's lazy initialization where the
 * application owns the client (see docs/operations.md).
 */
class StartWithoutRedisIT {

    private static final Duration RECOVERY_BOUND = Duration.ofSeconds(30);

    private static DedicatedRedis redis;

    /** The ways an application brings its Redis client. */
    enum Client {
        /** The README's dependency: the plain org.redisson:redisson jar; Guard makes its own lazy client. */
        PLAIN_REDISSON,
        /** spring-boot-starter-data-redis: Spring Data's Lettuce connection factory. */
        SPRING_DATA_LETTUCE,
        /** redisson-spring-boot-starter with lazyInitialization in its configuration. */
        REDISSON_STARTER_LAZY
    }

    static class Orders {
        @RateLimit(name = "browse", key = "#user", rate = 3, interval = "60s")
        public String browse(String user) {
            return "browsed";
        }

        @RateLimit(name = "pay", rate = 1000, interval = "1s")
        public String pay() {
            return "paid";
        }

        @RateLimit(name = "quote", rate = 2, interval = "60s")
        public String quote() {
            return "quoted";
        }
    }

    @BeforeAll
    static void startRedis() {
        redis = RedisServers.startDedicated();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void startsWhileRedisIsDownDecidesByPolicyAndSharesLimitsOnceRedisIsBack(Client client) {
        redis.stop();
        ApplicationContextRunner runner = runner(client);
        runner.run(first -> runner.run(second -> {
            assertThat(first).as("the first instance starts").hasNotFailed();
            assertThat(second).as("the second instance starts").hasNotFailed();
            Orders orders = first.getBean(Orders.class);

            assertThat(orders.browse("ada")).as("FAIL_OPEN allows").isEqualTo("browsed");
            assertThatThrownBy(orders::pay).as("FAIL_CLOSED refuses")
                    .isInstanceOf(RateLimiterBackendException.class).hasMessageContaining("'pay'");
            assertThat(orders.quote()).as("LOCAL counts in process").isEqualTo("quoted");
            assertThat(orders.quote()).isEqualTo("quoted");
            assertThatThrownBy(orders::quote).isInstanceOf(RateLimitExceededException.class);

            redis.start();
            awaitRedisDecides(first);
            awaitRedisDecides(second);

            Orders other = second.getBean(Orders.class);
            assertThat(orders.browse("grace")).isEqualTo("browsed");
            assertThat(other.browse("grace")).isEqualTo("browsed");
            assertThat(orders.browse("grace")).isEqualTo("browsed");
            assertThatThrownBy(() -> other.browse("grace")).as("one quota for both instances")
                    .isInstanceOf(RateLimitExceededException.class);
            assertThat(redis.endpoint("").keys()).anyMatch(key -> key.contains("browse:grace"));
        }));
    }

    /** Calls a FAIL_CLOSED limit until Redis decides it again (the backend breaker closed), within a bound. */
    private static void awaitRedisDecides(ApplicationContext context) {
        Orders orders = context.getBean(Orders.class);
        var breaker = context.getBean(CircuitBreakerRegistry.class).find("guard-rate-limit-backend").orElseThrow();
        BooleanSupplier decidedByRedis = () -> {
            try {
                orders.pay();
                return breaker.state() == State.CLOSED;
            } catch (RateLimiterBackendException e) {
                return false;
            }
        };
        long deadline = System.nanoTime() + RECOVERY_BOUND.toNanos();
        boolean decided = false;
        while (!decided && System.nanoTime() < deadline) {
            decided = decidedByRedis.getAsBoolean();
            if (!decided) {
                pause();
            }
        }
        assertThat(decided).as("Redis decides again within %s of its restart", RECOVERY_BOUND).isTrue();
    }

    private static void pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static ApplicationContextRunner runner(Client client) {
        ApplicationContextRunner runner = new ApplicationContextRunner()
                .withBean(Orders.class)
                .withPropertyValues("guard.rate-limit.instances.browse.on-backend-failure=fail-open",
                        "guard.rate-limit.instances.pay.on-backend-failure=fail-closed",
                        "guard.rate-limit.instances.quote.on-backend-failure=local",
                        "spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
                        // Redis is down at start on purpose: wait 1 s for the warm-up rather than the default 5 s
                        "guard.rate-limit.redis.warm-up-timeout=1s");
        return switch (client) {
            case PLAIN_REDISSON -> runner
                    .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
                    .withPropertyValues("guard.rate-limit.backend=redis");
            case SPRING_DATA_LETTUCE -> runner
                    .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                            AutoConfigs.type("DataRedisAutoConfiguration|RedisAutoConfiguration"),
                            GuardAutoConfiguration.class))
                    .withPropertyValues("guard.rate-limit.redis.client=spring-data");
            case REDISSON_STARTER_LAZY -> runner
                    .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                            AutoConfigs.type("DataRedisAutoConfiguration|RedisAutoConfiguration"),
                            AutoConfigs.type("RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"),
                            GuardAutoConfiguration.class))
                    .withPropertyValues("spring.redis.redisson.config=lazyInitialization: true\n"
                            + "singleServerConfig: {address: '" + redis.url() + "'}");
        };
    }
}
