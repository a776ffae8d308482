package io.guard.spring.aop;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the body of a rate-limited method runs when the decision comes from Redis: never on the Redis client's
 * event loop (it could not make a synchronous Redisson call there), and for CompletionStage methods on the caller's
 * thread, so that thread-bound context (security context, MDC, request scope, transactions) is still there.
 */
@RedisTest
class GuardedBodyThreadIT {

    private static final ThreadLocal<String> CALLER = new ThreadLocal<>();
    private static AnnotationConfigApplicationContext context;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    static class Services {
        @Bean
        Ledger ledger(RedissonClient redisson) {
            return new Ledger(redisson);
        }
    }

    static class Ledger {
        private final RedissonClient redisson;

        Ledger(RedissonClient redisson) {
            this.redisson = redisson;
        }

        @RateLimit(name = "ledger-mono", rate = 100, interval = "60s")
        public Mono<String> balance(String account) {
            // A synchronous Redisson call, legal anywhere but on Redisson's own event loop.
            Object value = redisson.getBucket("ledger:" + account).get();
            return Mono.just("balance " + account + " " + value);
        }

        @RateLimit(name = "ledger-flux", rate = 100, interval = "60s")
        public Flux<String> entries(String account) {
            Object value = redisson.getBucket("ledger:" + account).get();
            return Flux.just("entry " + account + " " + value);
        }

        @RateLimit(name = "ledger-future", rate = 100, interval = "60s")
        public CompletableFuture<String> statement() {
            return CompletableFuture.completedFuture(CALLER.get() + " on " + Thread.currentThread().getName());
        }
    }

    @BeforeAll
    static void start(RedisEndpoint redis) {
        context = RedisBacked.start(new AnnotationConfigApplicationContext(), redis,
                c -> c.register(Services.class));
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void aMonoBodyCanCallRedissonSynchronously() {
        assertThat(context.getBean(Ledger.class).balance("a").block(Duration.ofSeconds(10)))
                .isEqualTo("balance a null");
    }

    @Test
    void aFluxBodyCanCallRedissonSynchronously() {
        assertThat(context.getBean(Ledger.class).entries("b").collectList().block(Duration.ofSeconds(10)))
                .containsExactly("entry b null");
    }

    @Test
    void aCompletionStageBodyRunsOnTheCallersThreadWithItsContext() {
        CALLER.set("request 42");
        try {
            assertThat(context.getBean(Ledger.class).statement().join())
                    .isEqualTo("request 42 on " + Thread.currentThread().getName());
        } finally {
            CALLER.remove();
        }
    }
}
