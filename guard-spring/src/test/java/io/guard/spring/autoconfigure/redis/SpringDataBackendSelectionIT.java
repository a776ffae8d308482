package io.guard.spring.autoconfigure.redis;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.redis.ScriptConnection;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/** Guard on Spring Data Redis's Lettuce factory, found by itself or chosen over a RedissonClient, on a real Redis. */
@RedisTest
@ExtendWith(OutputCaptureExtension.class)
class SpringDataBackendSelectionIT {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class));

    private static LettuceConnectionFactory factory(RedisEndpoint redis) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(redis.host(), redis.port()));
        factory.afterPropertiesSet();
        return factory;
    }

    @Test
    void withoutRedissonTheConnectionFactoryDecides(RedisEndpoint redis) {
        runner.withClassLoader(new FilteredClassLoader(RedissonClient.class))
                .withBean(RedisConnectionFactory.class, () -> factory(redis))
                // A busy build machine may take longer than the default 250 ms to connect and load the scripts: this
                // test is about which client decides, not about the bound.
                .withPropertyValues("guard.rate-limit.key-prefix=" + redis.keyPrefix(),
                        "guard.rate-limit.redis.timeout=10s").run(context -> {
                    assertThat(context.getBean(ScriptConnection.class).clientName()).isEqualTo("lettuce");
                    RateLimiter limiter = context.getBean(RateLimiter.class);
                    assertThat(limiter).isInstanceOf(FailoverRateLimiter.class);
                    RateLimitPolicy policy = RateLimitPolicy.of("sd", Algorithm.FIXED_WINDOW, 1, Duration.ofHours(1));
                    assertThat(limiter.tryAcquire(policy, "k", 1).allowed()).isTrue();
                    assertThat(limiter.tryAcquire(policy, "k", 1).allowed()).isFalse();
                    assertThat(redis.keys()).hasSize(1);
                });
    }

    @Test
    void thePropertyChoosesSpringDataOverARedissonClient(RedisEndpoint redis) {
        runner.withBean(RedissonClient.class, () -> mock(RedissonClient.class))
                .withBean(RedisConnectionFactory.class, () -> factory(redis))
                .withPropertyValues("guard.rate-limit.redis.client=spring-data").run(context ->
                        assertThat(context.getBean(ScriptConnection.class).clientName()).isEqualTo("lettuce"));
    }

    /**
     * The factory stops (and shuts its client down) before Guard's beans are destroyed; Guard then finds its
     * connections closed and leaves them, instead of making Lettuce warn "Connection is already closed" for each.
     */
    @Test
    void shuttingDownLeavesNoWarningAboutClosedConnections(RedisEndpoint redis, CapturedOutput output) {
        runner.withClassLoader(new FilteredClassLoader(RedissonClient.class))
                .withBean(RedisConnectionFactory.class, () -> factory(redis))
                .withPropertyValues("guard.rate-limit.key-prefix=" + redis.keyPrefix(),
                        "guard.rate-limit.redis.timeout=10s").run(context -> {
                    RateLimitPolicy policy = RateLimitPolicy.of("down", Algorithm.FIXED_WINDOW, 5, Duration.ofHours(1));
                    // Both of Guard's connections in use: the script connection and the reset subscription.
                    assertThat(context.getBean(RateLimiter.class).tryAcquire(policy, "k", 1).allowed()).isTrue();
                });
        assertThat(output.getAll()).doesNotContain("Connection is already closed");
    }
}
