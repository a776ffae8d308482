package io.guard.benchmarks.startup.app;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * An application that uses its Redis at start-up ({@code app.ping=true}): one PING through Spring Data Redis before
 * it reports started, so its Lettuce client is connected (Netty's event loops, the connection, the codecs), as it is in
 * any application that reads Redis early. The baseline for what Guard adds beyond the client the application has.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty("app.ping")
class AppRedisPing {

    @Bean
    ApplicationRunner pingRedis(RedisConnectionFactory redis) {
        return arguments -> {
            try (RedisConnection connection = redis.getConnection()) {
                connection.ping();
            }
        };
    }
}
