package io.guard.spring.autoconfigure.redis;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.redis.ScriptConnection;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.test.AutoConfigs;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisSentinels;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spring.data.redis.sentinel.*} as an application writes it, with Spring Data Redis and Lettuce running
 * Guard's scripts: Guard's limits decide on the primary the sentinels name, and after {@code SENTINEL FAILOVER} on the new
 * one, with the quota carried over and without a restart (issue 23).
 */
class SentinelPropertiesIT {

    static class Payments {
        @RateLimit(name = "payments", key = "#user", rate = 3, interval = "1h")
        public String pay(String user) {
            return "paid";
        }
    }

    private static List<String> logsOf(DedicatedRedis node, String user) {
        return node.endpoint("guard:").keys().stream().filter(key -> key.contains(user) && key.endsWith(":log"))
                .toList();
    }

    /** An application on Spring Boot's Redis auto-configuration, pointed at the sentinels; Guard on its factory. */
    private static ApplicationContextRunner onSpringData(RedisSentinels sentinels) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
                .withConfiguration(AutoConfigurations.of(AutoConfigs.type(
                        "DataRedisAutoConfiguration|RedisAutoConfiguration")))
                .withBean(Payments.class)
                .withPropertyValues("spring.data.redis.sentinel.master=" + RedisSentinels.MASTER_NAME,
                        "spring.data.redis.sentinel.nodes=" + String.join(",", sentinels.sentinelAddresses()),
                        "guard.rate-limit.redis.client=spring-data");
    }

    /** guard.rate-limit.redis.database through the sentinels: the primary they name holds Guard's keys in it. */
    @Test
    void guardsDatabaseIsSelectedOnThePrimaryTheSentinelsName() {
        try (RedisSentinels sentinels = RedisSentinels.start()) {
            onSpringData(sentinels).withPropertyValues("spring.data.redis.timeout=10s",
                            "guard.rate-limit.redis.timeout=10s", "guard.rate-limit.redis.database=3")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        assertThat(context.getBean(Payments.class).pay("ada")).isEqualTo("paid");
                        RedisEndpoint primary = sentinels.primary().endpoint("guard:");
                        assertThat(primary.keysIn(3)).anyMatch(key -> key.contains("{payments:ada}"));
                        assertThat(primary.keys()).as("the application's database 0").isEmpty();
                    });
        }
    }

    @Test
    void limitsFollowTheSentinelsToTheNewPrimaryWithTheirQuota() {
        try (RedisSentinels sentinels = RedisSentinels.start()) {
            onSpringData(sentinels).withPropertyValues("spring.data.redis.timeout=1s",
                            "guard.rate-limit.redis.timeout=1s",
                            "guard.rate-limit.instances.payments.on-backend-failure=FAIL_CLOSED")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        assertThat(context.getBean(ScriptConnection.class).clientName()).isEqualTo("lettuce");
                        Payments payments = context.getBean(Payments.class);
                        DedicatedRedis first = sentinels.primary();
                        assertThat(payments.pay("ada")).isEqualTo("paid");
                        assertThat(payments.pay("ada")).isEqualTo("paid");
                        RedisSentinels.awaitInSync(sentinels.other(first), first);

                        DedicatedRedis second = sentinels.failover();
                        // Lettuce moves when the sentinels announce the switch, a few seconds at most.
                        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                        for (int probe = 0; logsOf(second, "probe").isEmpty() && System.nanoTime() < deadline;
                             probe++) {
                            payments.pay("probe-" + probe);
                            Thread.sleep(50);
                        }
                        assertThat(logsOf(second, "probe")).as("a decision landed on the new primary").isNotEmpty();

                        assertThat(payments.pay("ada")).as("the 3rd of 3, decided by the new primary")
                                .isEqualTo("paid");
                        List<String> logs = logsOf(second, "ada");
                        assertThat(logs).hasSize(1);
                        assertThat(second.endpoint("guard:").call("ZCARD", logs.get(0)))
                                .as("spends in the new primary's log").isEqualTo(3L);
                        RateLimiterRegistry registry = context.getBean(RateLimiterRegistry.class);
                        assertThat(registry.tryAcquire("payments", "ada", 1).allowed())
                                .as("the quota was carried over, not reset").isFalse();
                    });
        }
    }
}
