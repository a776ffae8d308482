package io.guard.spring.web;

import io.guard.spring.test.ImportAutoConfigs;
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
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
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

    private static AnnotationConfigApplicationContext context;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"JacksonAutoConfiguration", "CodecsAutoConfiguration", "WebFluxAutoConfiguration",
            "HttpHandlerAutoConfiguration", "DataRedisAutoConfiguration|RedisAutoConfiguration", "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
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
        context = RedisBacked.start(AutoConfigs.reactiveWebContext(), redis,
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
        Exchange first = Exchange.get(client, "/quotes/ann");
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.header("RateLimit-Policy")).isEqualTo("\"quotes\";q=2;w=60");
        // Seconds left in the window: 60 when the calls are quick, less on a loaded machine.
        assertThat(first.header("RateLimit")).matches("\"quotes\";r=1;t=([1-5]?[0-9]|60)");
        assertThat(Exchange.get(client, "/quotes/ann").status()).isEqualTo(200);
        Exchange refused = Exchange.get(client, "/quotes/ann");
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.isProblem()).isTrue();
        assertThat(refused.header("Retry-After")).matches("[1-5]?[0-9]|60").isNotEqualTo("0");
        assertThat(refused.header("RateLimit")).matches("\"quotes\";r=0;t=([1-5]?[0-9]|60)");
        assertThat(refused.json().path("title").asText()).isEqualTo("Too Many Requests");
        assertThat(refused.json().path("detail").asText()).isEqualTo("Rate limit 'quotes' allows 2 requests per 60s.");
        assertThat(refused.json().path("violated-policies").path(0).asText()).isEqualTo("quotes");
        assertThat(Exchange.get(client, "/quotes/ben").status()).isEqualTo(200);
        assertThat(context.getBean(RateLimiterRegistry.class).stats("quotes").rejected()).isEqualTo(1);
    }

    @Test
    void monoFailuresPickTheClosestFallback() {
        WebTestClient client = client();
        assertThat(Exchange.get(client, "/prices/tea").body()).isEqualTo("price of tea");
        assertThat(Exchange.get(client, "/prices/slow").body()).isEqualTo("last known price of slow");
        assertThat(Exchange.get(client, "/prices/broken").body()).isEqualTo("no price for broken");
        var snapshot = context.getBean(CircuitBreakerRegistry.class).find("prices").orElseThrow().snapshot();
        assertThat(snapshot.calls()).isEqualTo(3);
        assertThat(snapshot.failedCalls()).isEqualTo(2);
    }
}
