package io.guard.spring.reliability;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisCounters;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 22 item 1 in an application: once the context has started, Guard's Redis connection is warm (connected,
 * scripts in Redis's cache), so the first decision opens no connection and loads no script; with Redis down the
 * context starts after the bounded wait with one WARN, and once Redis is up the warm-up completes in the background
 * without waiting for a decision. On the clients that connect on first use: Guard's own lazy Redisson client and
 * Spring Data's Lettuce. A server of its own, so that its counters see only this test.
 */
@ExtendWith(OutputCaptureExtension.class)
class WarmStartIT {

    private static final Duration BOUND = Duration.ofSeconds(60);
    private static DedicatedRedis redis;

    enum Client {
        /** The README's dependency: the plain org.redisson:redisson jar; Guard makes its own lazy client. */
        PLAIN_REDISSON,
        /** spring-boot-starter-data-redis: Spring Data's Lettuce connection factory. */
        SPRING_DATA_LETTUCE
    }

    static class Orders {
        @RateLimit(name = "submit", key = "#user", rate = 5, interval = "60s")
        public String submit(String user) {
            return "submitted";
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

    @BeforeEach
    void emptyRedis() {
        if (!redis.isRunning()) {
            redis.start();
        }
        server().call("SCRIPT", "FLUSH");
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void theFirstDecisionAfterStartUpNeitherConnectsNorLoadsAScript(Client client, CapturedOutput output) {
        long evalsBeforeStart = RedisCounters.read(server()).calls("eval");
        runner(client).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(RedisCounters.read(server()).cachedScripts()).as("decide, reset and lease are in the script cache")
                    .isGreaterThanOrEqualTo(3);
            assertThat(output).contains("is warm: connected, scripts loaded");

            RedisCounters before = RedisCounters.read(server());
            // Redisson 4 probes a new connection with one EVAL of its own (whether multi-key scripts run); Guard's
            // scripts, the overrides' included, are loaded ahead, so none of them ran by source after a NOSCRIPT.
            assertThat(before.calls("eval") - evalsBeforeStart).as("EVALs while the context started")
                    .isLessThanOrEqualTo(client == Client.PLAIN_REDISSON ? 1 : 0);
            assertThat(context.getBean(Orders.class).submit("ada")).isEqualTo("submitted");
            RedisCounters after = RedisCounters.read(server());

            assertThat(after.connectionsReceived()).as("no connection opened but the probe's own")
                    .isEqualTo(before.connectionsReceived() + 1);
            assertThat(after.calls("script")).as("no SCRIPT LOAD").isEqualTo(before.calls("script"));
            assertThat(after.calls("eval")).as("no EVAL after a NOSCRIPT").isEqualTo(before.calls("eval"));
            assertThat(after.calls("evalsha")).as("the decision ran by digest")
                    .isGreaterThan(before.calls("evalsha"));
        });
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void withRedisDownTheApplicationStartsAfterTheBoundAndWarmsUpOnceRedisIsBack(Client client,
                                                                                 CapturedOutput output) {
        redis.stop();
        long started = System.nanoTime();
        runner(client).withPropertyValues("guard.rate-limit.redis.warm-up-timeout=1s").run(context -> {
            long startUpMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertThat(context).hasNotFailed();
            assertThat(output).contains("was not warm within 1000 ms (guard.rate-limit.redis.warm-up-timeout)")
                    .contains("The application starts anyway");
            System.out.printf("%s started in %d ms with Redis down%n", client, startUpMillis);

            redis.start();
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (RedisCounters.read(server()).cachedScripts() < 3 && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
            assertThat(RedisCounters.read(server()).cachedScripts()).as("warmed up in the background, no decision asked")
                    .isGreaterThanOrEqualTo(3);
            while (!output.toString().contains("is warm now") && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
            assertThat(output).contains("is warm now");
            assertThat(context.getBean(Orders.class).submit("grace")).isEqualTo("submitted");
        });
    }

    private static ApplicationContextRunner runner(Client client) {
        ApplicationContextRunner runner = new ApplicationContextRunner()
                .withBean(Orders.class)
                .withPropertyValues("guard.rate-limit.instances.submit.on-backend-failure=fail-closed",
                        "spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port());
        return switch (client) {
            case PLAIN_REDISSON -> runner
                    .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
                    .withPropertyValues("guard.rate-limit.backend=redis");
            case SPRING_DATA_LETTUCE -> runner
                    .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                            AutoConfigs.type("DataRedisAutoConfiguration|RedisAutoConfiguration"),
                            GuardAutoConfiguration.class))
                    .withPropertyValues("guard.rate-limit.redis.client=spring-data");
        };
    }

    private static RedisEndpoint server() {
        return redis.endpoint("");
    }
}
