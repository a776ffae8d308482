package io.guard.sample.redis;

import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * Gives the sample a Redis with zero set-up: when the Redis that {@code spring.data.redis.*} names does not answer,
 * starts an embedded one on a free loopback port and points {@code spring.data.redis.*} at it. Runs before the
 * context refreshes, so Redisson's auto-configuration connects to the right server; the embedded server is a bean
 * that every {@link RedissonClient} depends on, so it stops after Redisson has shut down.
 *
 * <p>{@code sample.redis.embedded}: {@code auto} (default: probe, then start one if needed), {@code always} (never
 * probe; tests use this so they never touch a developer's Redis) or {@code never}. Sentinel, Cluster and Redisson
 * config files are left alone.
 */
public final class EmbeddedRedisInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    static final String MODE_PROPERTY = "sample.redis.embedded";
    static final String BEAN_NAME = "sampleEmbeddedRedis";
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(300);
    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedisInitializer.class);

    private enum Mode { AUTO, ALWAYS, NEVER }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        ConfigurableEnvironment environment = context.getEnvironment();
        Mode mode = mode(environment.getProperty(MODE_PROPERTY, "auto"));
        if (mode == Mode.NEVER || configuresOtherTopology(environment)) {
            return;
        }
        if (mode == Mode.AUTO) {
            RedisTarget target = RedisTarget.from(environment);
            if (target.answers(PROBE_TIMEOUT)) {
                log.info("Using the Redis at {} (spring.data.redis.*)", target);
                return;
            }
            log.info("No Redis answers at {}; starting an embedded Redis", target);
        }
        EmbeddedRedis redis = EmbeddedRedis.start();
        environment.getPropertySources().addFirst(new MapPropertySource("sampleEmbeddedRedis", Map.of(
                "spring.data.redis.host", "127.0.0.1",
                "spring.data.redis.port", redis.port(),
                "spring.data.redis.url", "redis://127.0.0.1:" + redis.port())));
        // Spring Boot's contexts all use a DefaultListableBeanFactory; only it can own a registered singleton.
        DefaultListableBeanFactory beanFactory = (DefaultListableBeanFactory) context.getBeanFactory();
        beanFactory.registerSingleton(BEAN_NAME, redis);
        beanFactory.registerDisposableBean(BEAN_NAME, redis);
        context.addBeanFactoryPostProcessor(EmbeddedRedisInitializer::stopAfterRedisson);
        log.info("Started an embedded Redis on 127.0.0.1:{}; it stops with the application", redis.port());
    }

    /**
     * The server must outlive the Redisson clients, or their shutdown logs connection errors: a bean is destroyed
     * only after the beans that depend on it.
     */
    private static void stopAfterRedisson(ConfigurableListableBeanFactory beanFactory) {
        for (String name : beanFactory.getBeanNamesForType(RedissonClient.class, true, false)) {
            BeanDefinition definition = beanFactory.getBeanDefinition(name);
            String[] dependsOn = definition.getDependsOn() == null ? new String[0] : definition.getDependsOn();
            String[] extended = Arrays.copyOf(dependsOn, dependsOn.length + 1);
            extended[dependsOn.length] = BEAN_NAME;
            definition.setDependsOn(extended);
        }
    }

    private static boolean configuresOtherTopology(ConfigurableEnvironment environment) {
        for (String property : new String[] {"spring.data.redis.sentinel.master", "spring.data.redis.cluster.nodes",
                "spring.redis.redisson.config", "spring.redis.redisson.file"}) {
            if (environment.containsProperty(property)) {
                log.info("{} is set; not probing for Redis and not starting an embedded one", property);
                return true;
            }
        }
        return false;
    }

    private static Mode mode(String value) {
        try {
            return Mode.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(MODE_PROPERTY + " must be auto, always or never but was '" + value + "'", e);
        }
    }
}
