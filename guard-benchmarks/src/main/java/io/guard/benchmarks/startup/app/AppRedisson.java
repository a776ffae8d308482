package io.guard.benchmarks.startup.app;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The application's own {@code RedissonClient}, in the variants that have one ({@code app.redisson=true}). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty("app.redisson")
class AppRedisson {

    @Bean(destroyMethod = "shutdown")
    RedissonClient redisson(@Value("${spring.data.redis.port}") int port) {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://127.0.0.1:" + port);
        return Redisson.create(config);
    }
}
