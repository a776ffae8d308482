package io.guard.spring.autoconfigure.redis;

import io.guard.ratelimit.LimitOverrideStore;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.redis.ScriptConnection;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code guard.rate-limit.redis.database} on a real Redis, with both clients Guard makes its connections from:
 * Spring Data Redis's Lettuce factory, and Guard's own Redisson client made from {@code spring.data.redis.*}. The
 * application keeps database 0; Guard's keys go to database 3 and none to 0, and an override or a reset made on one
 * instance still reaches the other (pub/sub channels are the same in every database). The defect it answers: an
 * application that lists its own data with {@code KEYS *} met Guard's keys and failed to read them as its own.
 */
@RedisTest
class RedisDatabaseIT {

    private static final int GUARDS = 3;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withUserConfiguration(Quota.class);

    /** Through Spring Data Redis's Lettuce factory, whose own database is the application's 0. */
    private ApplicationContextRunner onSpringData(LettuceConnectionFactory factory, String prefix) {
        return runner.withClassLoader(new FilteredClassLoader(RedissonClient.class))
                .withBean(RedisConnectionFactory.class, () -> factory)
                .withPropertyValues(guard(prefix));
    }

    /** Through the lazy Redisson client Guard makes from spring.data.redis.* (whose database is 0). */
    private ApplicationContextRunner onOwnRedisson(RedisEndpoint redis) {
        return runner.withPropertyValues(guard(redis.keyPrefix())).withPropertyValues("guard.rate-limit.backend=redis",
                "spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port());
    }

    private static String[] guard(String prefix) {
        // A busy build machine may take longer than the default 250 ms to connect and load the scripts: these tests
        // are about where the keys go, not about the bound. The poll interval is long so that only the pub/sub
        // message can bring an override to the other instance within the test.
        return new String[] {"guard.rate-limit.redis.database=" + GUARDS, "guard.rate-limit.key-prefix=" + prefix,
                "guard.rate-limit.redis.timeout=10s", "guard.rate-limit.override-poll-interval=1h"};
    }

    private static LettuceConnectionFactory factory(String host, int port) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
        factory.afterPropertiesSet();
        return factory;
    }

    @Test
    void onSpringDataRedisADecisionWritesItsKeysInGuardsDatabaseAndNoneInTheApplications(RedisEndpoint redis) {
        onSpringData(factory(redis.host(), redis.port()), redis.keyPrefix()).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(ScriptConnection.class).clientName()).isEqualTo("lettuce");
            context.getBean(Quota.class).take("ann");

            assertThat(redis.keysIn(GUARDS)).isNotEmpty().allMatch(key -> key.contains("{quota:ann}:"));
            assertThat(redis.keys()).as("the application's database 0").isEmpty();
        });
    }

    @Test
    void onGuardsOwnRedissonClientADecisionWritesItsKeysInGuardsDatabaseAndNoneInTheApplications(
            RedisEndpoint redis) {
        onOwnRedisson(redis).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(ScriptConnection.class).clientName()).isEqualTo("redisson");
            context.getBean(Quota.class).take("ann");

            assertThat(redis.keysIn(GUARDS)).isNotEmpty().allMatch(key -> key.contains("{quota:ann}:"));
            assertThat(redis.keys()).as("the application's database 0").isEmpty();
        });
    }

    /** One instance on each client, both in database 3: an override and a reset made on one reach the other. */
    @Test
    void overridesAndResetsReachTheOtherInstance(RedisEndpoint redis) {
        // Redisson's first: the Spring Data instance hides Redisson's classes from the thread while it runs.
        onOwnRedisson(redis).run(b -> onSpringData(factory(redis.host(), redis.port()), redis.keyPrefix()).run(a -> {
            b.getBean(Quota.class).take("ann");
            RateLimiterRegistry onB = b.getBean(RateLimiterRegistry.class);
            assertThat(onB.find("quota").orElseThrow().rate()).isEqualTo(5);

            a.getBean(LimitOverrideStore.class).put("quota", "rate=10;source=actuator;at=2026-01-01T00:00:00Z")
                    .toCompletableFuture().get(10, TimeUnit.SECONDS);

            await().atMost(Duration.ofSeconds(10)).until(() -> onB.find("quota").orElseThrow().rate() == 10);
            assertThat(redis.keysIn(GUARDS)).anyMatch(key -> key.contains("{guard-overrides}"));
            assertThat(redis.keys()).isEmpty();

            a.getBean(RateLimiterRegistry.class).reset("quota", "ann").toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            assertThat(redis.keysIn(GUARDS)).noneMatch(key -> key.contains("{quota:ann}"));
        }));
    }

    /**
     * The reported defect's shape, on a server of its own so that {@code KEYS *} sees only this test: the
     * application lists every key of its database and reads each as its own data.
     */
    @Test
    void anApplicationThatListsEveryKeyOfItsDatabaseSeesOnlyItsOwn() {
        try (DedicatedRedis server = RedisServers.startDedicated()) {
            LettuceConnectionFactory factory = factory(server.host(), server.port());
            onSpringData(factory, "guard:")
                    .withBean(StringRedisTemplate.class, () -> new StringRedisTemplate(factory))
                    .run(context -> {
                        StringRedisTemplate coffees = context.getBean(StringRedisTemplate.class);
                        coffees.opsForValue().set("coffee:1", "{\"name\":\"Jet Black Redis\"}");
                        context.getBean(Quota.class).take("ann");

                        assertThat(coffees.keys("*")).containsExactly("coffee:1");
                        assertThat(server.endpoint("guard:").keysIn(GUARDS)).isNotEmpty();
                    });
        }
    }

    /** Without the setting, Guard shares the application's database, as before: what the defect report met. */
    @Test
    void withoutTheSettingGuardsKeysAreInTheApplicationsDatabase() {
        try (DedicatedRedis server = RedisServers.startDedicated()) {
            LettuceConnectionFactory factory = factory(server.host(), server.port());
            runner.withClassLoader(new FilteredClassLoader(RedissonClient.class))
                    .withBean(RedisConnectionFactory.class, () -> factory)
                    .withBean(StringRedisTemplate.class, () -> new StringRedisTemplate(factory))
                    .withPropertyValues("guard.rate-limit.redis.timeout=10s")
                    .run(context -> {
                        StringRedisTemplate coffees = context.getBean(StringRedisTemplate.class);
                        coffees.opsForValue().set("coffee:1", "{\"name\":\"Jet Black Redis\"}");
                        context.getBean(Quota.class).take("ann");

                        assertThat(coffees.keys("*")).contains("coffee:1")
                                .anyMatch(key -> key.startsWith("guard:{quota:ann}"));
                    });
        }
    }

    public static class Quota {
        @RateLimit(name = "quota", key = "#user", rate = 5, interval = "1h")
        public String take(String user) {
            return "ok";
        }
    }
}
