package io.guard.spring.autoconfigure.redis;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An application on the README's dependencies: the plain {@code org.redisson:redisson} jar, no
 * redisson-spring-boot-starter, {@code guard.rate-limit.backend=redis} and the {@code spring.data.redis.*} it
 * already has. Guard's own client counts the limits in that Redis, and Spring Data Redis stays out.
 */
@RedisTest
class OwnRedissonClientIT {

    @Test
    void countsLimitsInTheRedisThatSpringDataRedisPropertiesName(RedisEndpoint redis) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
                .withUserConfiguration(Signups.class)
                .withPropertyValues("guard.rate-limit.backend=redis", "guard.rate-limit.key-prefix=" + redis.keyPrefix(),
                        // A busy build machine may take longer than the default 250 ms to connect and load the scripts:
                        // this test is about where limits are counted, not about the bound.
                        "guard.rate-limit.redis.timeout=10s",
                        "spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean("redisConnectionFactory");
                    Signup signup = context.getBean(Signup.class);
                    signup.register("ada");
                    signup.register("ada");
                    assertThatThrownBy(() -> signup.register("ada")).isInstanceOf(RateLimitExceededException.class);
                    assertThat(redis.keys()).anyMatch(key -> key.startsWith(redis.keyPrefix()) && key.contains("ada"));
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class Signups {

        @Bean
        Signup signup() {
            return new Signup();
        }
    }

    static class Signup {

        @RateLimit(name = "signup", key = "#email", rate = 2, interval = "60s")
        public void register(String email) {
        }
    }
}
