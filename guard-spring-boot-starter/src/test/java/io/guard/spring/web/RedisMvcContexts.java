package io.guard.spring.web;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import org.redisson.spring.starter.RedissonAutoConfigurationV2;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.http.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.DispatcherServletAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/** A Spring MVC application with Guard on Redisson, for tests that stop the Redis they point it at. */
public final class RedisMvcContexts {

    private RedisMvcContexts() {
    }

    /**
     * Short timeouts and no retries, so that the tests measure Guard's answer to an outage, not Redisson's patience.
     */
    public static WebApplicationContextRunner runner(String redisUrl, int timeoutMillis, int connectTimeoutMillis) {
        return new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                        JacksonAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class,
                        DispatcherServletAutoConfiguration.class, WebMvcAutoConfiguration.class,
                        RedisAutoConfiguration.class, RedissonAutoConfigurationV2.class,
                        GuardAutoConfiguration.class))
                .withPropertyValues("spring.redis.redisson.config=singleServerConfig: {address: '" + redisUrl + "', "
                        + "timeout: " + timeoutMillis + ", connectTimeout: " + connectTimeoutMillis
                        + ", retryAttempts: 0, connectionMinimumIdleSize: 1, subscriptionConnectionMinimumIdleSize: 0}");
    }
}
