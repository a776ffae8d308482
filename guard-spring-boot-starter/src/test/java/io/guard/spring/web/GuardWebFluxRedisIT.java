package io.guard.spring.web;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.spring.starter.RedissonAutoConfigurationV2;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.http.codec.CodecsAutoConfiguration;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.autoconfigure.web.reactive.HttpHandlerAutoConfiguration;
import org.springframework.boot.autoconfigure.web.reactive.WebFluxAutoConfiguration;
import org.springframework.boot.web.reactive.context.AnnotationConfigReactiveWebApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/** WebFlux end to end on a real Redis: Mono handlers are limited without blocking, answers are HTTP. */
@RedisTest
class GuardWebFluxRedisIT {

    private static AnnotationConfigReactiveWebApplicationContext context;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({AopAutoConfiguration.class, JacksonAutoConfiguration.class,
            CodecsAutoConfiguration.class, WebFluxAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
            RedisAutoConfiguration.class, RedissonAutoConfigurationV2.class, GuardAutoConfiguration.class})
    @Import(QuoteController.class)
    static class Quotes {
    }

    @RestController
    static class QuoteController {
        @GetMapping("/quotes/{user}")
        @RateLimit(name = "quotes", key = "#user", rate = 2, interval = "60s")
        public Mono<String> quote(@PathVariable String user) {
            return Mono.just("quote for " + user);
        }

        @GetMapping("/prices/{sku}")
        @RateLimit(name = "prices", rate = 100, interval = "60s")
        @CircuitBreaker(name = "prices", fallbackMethod = "lastKnown")
        public Mono<String> price(@PathVariable String sku) {
            return switch (sku) {
                case "slow" -> Mono.error(new TimeoutException("pricing timed out"));
                case "broken" -> Mono.error(new IOException("pricing unreachable"));
                default -> Mono.just("price of " + sku);
            };
        }

        @SuppressWarnings("unused")
        private Mono<String> lastKnown(String sku, TimeoutException e) {
            return Mono.just("last known price of " + sku);
        }

        @SuppressWarnings("unused")
        private Mono<String> lastKnown(String sku, Exception e) {
            return Mono.just("no price for " + sku);
        }
    }

    @BeforeAll
    static void start(RedisEndpoint redis) {
        context = RedisBacked.start(new AnnotationConfigReactiveWebApplicationContext(), redis,
                c -> c.register(Quotes.class));
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    private static WebTestClient client() {
        return WebTestClient.bindToApplicationContext(context).build();
    }

    @Test
    void monoHandlersAreLimitedPerUserInRedis() {
        WebTestClient client = client();
        client.get().uri("/quotes/ann").exchange().expectStatus().isOk()
                .expectHeader().valueEquals("RateLimit-Policy", "\"quotes\";q=2;w=60")
                .expectHeader().valueMatches("RateLimit", "\"quotes\";r=1;t=(59|60)");
        client.get().uri("/quotes/ann").exchange().expectStatus().isOk();
        client.get().uri("/quotes/ann").exchange()
                .expectStatus().isEqualTo(429)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectHeader().valueMatches("Retry-After", "59|60")
                .expectHeader().valueMatches("RateLimit", "\"quotes\";r=0;t=(59|60)")
                .expectBody()
                .jsonPath("$.title").isEqualTo("Too Many Requests")
                .jsonPath("$.detail").isEqualTo("Rate limit 'quotes' allows 2 requests per 60s.")
                .jsonPath("$.violated-policies[0]").isEqualTo("quotes");
        client.get().uri("/quotes/ben").exchange().expectStatus().isOk();
        assertThat(context.getBean(RateLimiterRegistry.class).stats("quotes").rejected()).isEqualTo(1);
    }

    @Test
    void monoFailuresPickTheClosestFallback() {
        WebTestClient client = client();
        client.get().uri("/prices/tea").exchange().expectBody(String.class).isEqualTo("price of tea");
        client.get().uri("/prices/slow").exchange().expectBody(String.class)
                .isEqualTo("last known price of slow");
        client.get().uri("/prices/broken").exchange().expectBody(String.class).isEqualTo("no price for broken");
        var snapshot = context.getBean(CircuitBreakerRegistry.class).find("prices").orElseThrow().snapshot();
        assertThat(snapshot.calls()).isEqualTo(3);
        assertThat(snapshot.failedCalls()).isEqualTo(2);
    }
}
