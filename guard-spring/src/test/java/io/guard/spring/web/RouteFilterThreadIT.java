package io.guard.spring.web;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where WebFlux continues after a route limit decided on Redis: an application's filter after Guard's may block (a
 * synchronous Redisson call here), so it must never run on the Redis client's I/O thread, where such a call fails
 * and every other connection's answers would wait behind it.
 */
@RedisTest
class RouteFilterThreadIT {

    private static final int REQUESTS = 10;
    private static final List<String> THREADS = new CopyOnWriteArrayList<>();
    private static ConfigurableApplicationContext context;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"JacksonAutoConfiguration", "CodecsAutoConfiguration", "WebFluxAutoConfiguration",
            "HttpHandlerAutoConfiguration", "DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(Orders.class)
    static class Application {
        @Bean
        BlockingFilter blockingFilter(RedissonClient redisson) {
            return new BlockingFilter(redisson);
        }
    }

    @RestController
    static class Orders {
        @GetMapping("/partner/orders")
        public Mono<String> orders() {
            return Mono.just("orders");
        }
    }

    /** Runs after Guard's route filter and blocks: a synchronous Redis call, as a legacy audit filter might make. */
    static class BlockingFilter implements WebFilter, Ordered {
        private final RedissonClient redisson;

        BlockingFilter(RedissonClient redisson) {
            this.redisson = redisson;
        }

        @Override
        public int getOrder() {
            return GuardRouteWebFilter.ORDER + 1;
        }

        @Override
        public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
            THREADS.add(Thread.currentThread().getName());
            redisson.getBucket("audit:" + exchange.getRequest().getPath()).get();
            return chain.filter(exchange);
        }
    }

    @BeforeAll
    static void start(RedisEndpoint redis) {
        context = RedisBacked.start(AutoConfigs.reactiveWebContext(), redis, c -> c.register(Application.class),
                "guard.rate-limit.instances.partner.rate=100", "guard.rate-limit.instances.partner.interval=60s",
                "guard.rate-limit.routes[0].name=partner", "guard.rate-limit.routes[0].paths[0]=/partner/**");
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @Test
    void theChainAfterARouteDecisionContinuesOffTheRedisClientsThread() {
        WebTestClient client = WebTestClient.bindToApplicationContext(context).build();
        for (int i = 0; i < REQUESTS; i++) {
            Exchange answer = Exchange.get(client, "/partner/orders");
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo("orders");
            assertThat(answer.header("RateLimit")).startsWith("\"partner\";r=" + (99 - i));
        }
        assertThat(THREADS).hasSize(REQUESTS).noneMatch(thread -> thread.startsWith("redisson-netty"));
    }
}
