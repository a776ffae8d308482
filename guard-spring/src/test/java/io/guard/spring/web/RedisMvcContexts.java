package io.guard.spring.web;

import io.guard.spring.test.AutoConfigs;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/** A Spring MVC or WebFlux application with Guard on Redisson, for tests that stop the Redis they point it at. */
public final class RedisMvcContexts {

    private RedisMvcContexts() {
    }

    /**
     * Short timeouts and no retries, so that the tests measure Guard's answer to an outage, not Redisson's patience.
     */
    public static WebApplicationContextRunner runner(String redisUrl, int timeoutMillis, int connectTimeoutMillis) {
        return new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                        AutoConfigs.type("JacksonAutoConfiguration"), AutoConfigs.type("HttpMessageConvertersAutoConfiguration"),
                        AutoConfigs.type("DispatcherServletAutoConfiguration"), AutoConfigs.type("WebMvcAutoConfiguration"),
                        AutoConfigs.type("DataRedisAutoConfiguration|RedisAutoConfiguration"), AutoConfigs.type("RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"),
                        GuardAutoConfiguration.class))
                .withPropertyValues(redisson(redisUrl, timeoutMillis, connectTimeoutMillis));
    }

    /** {@link #runner} for WebFlux. */
    public static ReactiveWebApplicationContextRunner webFluxRunner(String redisUrl, int timeoutMillis,
                                                                    int connectTimeoutMillis) {
        return new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                        AutoConfigs.type("JacksonAutoConfiguration"), AutoConfigs.type("CodecsAutoConfiguration"),
                        AutoConfigs.type("WebFluxAutoConfiguration"), AutoConfigs.type("HttpHandlerAutoConfiguration"),
                        AutoConfigs.type("DataRedisAutoConfiguration|RedisAutoConfiguration"),
                        AutoConfigs.type("RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"),
                        GuardAutoConfiguration.class))
                .withPropertyValues(redisson(redisUrl, timeoutMillis, connectTimeoutMillis));
    }

    private static String redisson(String redisUrl, int timeoutMillis, int connectTimeoutMillis) {
        return "spring.redis.redisson.config=singleServerConfig: {address: '" + redisUrl + "', "
                + "timeout: " + timeoutMillis + ", connectTimeout: " + connectTimeoutMillis
                + ", retryAttempts: 0, connectionMinimumIdleSize: 1, subscriptionConnectionMinimumIdleSize: 0}";
    }
}
