package io.guard.spring.web;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.key.RateLimitKeyResolver;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
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
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.security.Principal;

import static io.guard.spring.web.ClientServers.client;
import static io.guard.spring.web.ClientServers.get;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebFlux on a real server and a real Redis: the exchange is not bound to a thread, so the keys of Mono and Flux
 * handlers are evaluated per subscription with the exchange Guard's filter puts into the Reactor context. Clients
 * connect from different loopback addresses; {@code X-Forwarded-For} counts only when
 * {@code server.forward-headers-strategy=framework} installs Spring's {@code ForwardedHeaderTransformer}.
 */
@RedisTest
class ClientKeyWebFluxIT {

    private static ConfigurableApplicationContext direct;
    private static ConfigurableApplicationContext forwarding;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"NettyReactiveWebServerAutoConfiguration|ReactiveWebServerFactoryAutoConfiguration",
            "JacksonAutoConfiguration", "CodecsAutoConfiguration", "WebFluxAutoConfiguration",
            "HttpHandlerAutoConfiguration", "DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(KeyedController.class)
    static class App {
        @Bean
        RateLimitKeyResolver tenantKey() {
            return call -> call.header("X-Tenant");
        }

        @Bean
        TestAuthentication testAuthentication() {
            return new TestAuthentication();
        }
    }

    /** Stands in for an authentication filter (Spring Security's, at order -100, sets the principal the same way). */
    static class TestAuthentication implements WebFilter, Ordered {
        @Override
        public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
            String user = exchange.getRequest().getHeaders().getFirst("X-Test-User");
            return chain.filter(user == null ? exchange
                    : exchange.mutate().principal(Mono.<Principal>just(() -> user)).build());
        }

        @Override
        public int getOrder() {
            return -100;
        }
    }

    @RestController
    static class KeyedController {
        @GetMapping("/ip")
        @RateLimit(name = "per-ip", key = "#clientIp", rate = 2, interval = "60s")
        public Mono<String> ip() {
            return Mono.just("ok");
        }

        @GetMapping("/ip-flux")
        @RateLimit(name = "per-ip-flux", key = "#clientIp", rate = 1, interval = "60s")
        public Flux<String> ipFlux() {
            return Flux.just("o", "k");
        }

        @GetMapping("/user")
        @RateLimit(name = "per-user", key = "#principal", rate = 1, interval = "60s")
        public Mono<String> user() {
            return Mono.just("ok");
        }

        @GetMapping("/api")
        @RateLimit(name = "per-api-key", key = "#headers['x-api-key']", rate = 1, interval = "60s")
        public Mono<String> api() {
            return Mono.just("ok");
        }

        @GetMapping("/tenant")
        @RateLimit(name = "per-tenant", keyResolver = "tenantKey", rate = 1, interval = "60s")
        public Mono<String> tenant() {
            return Mono.just("ok");
        }
    }

    @BeforeAll
    static void start(RedisEndpoint redis) {
        direct = ClientServers.start(App.class, WebApplicationType.REACTIVE, redis, "direct:");
        forwarding = ClientServers.start(App.class, WebApplicationType.REACTIVE, redis, "forwarding:",
                "server.forward-headers-strategy=framework");
    }

    @AfterAll
    static void stop() {
        direct.close();
        forwarding.close();
    }

    @Test
    void twoClientAddressesGetSeparateQuotas() {
        WebTestClient first = client(direct, "127.0.0.2");
        assertThat(get(first, "/ip")).isEqualTo(200);
        assertThat(get(first, "/ip")).isEqualTo(200);
        assertThat(get(first, "/ip")).isEqualTo(429);
        assertThat(get(client(direct, "127.0.0.3"), "/ip")).isEqualTo(200);
    }

    @Test
    void fluxHandlersAreKeyedToo() {
        assertThat(get(client(direct, "127.0.0.4"), "/ip-flux")).isEqualTo(200);
        assertThat(get(client(direct, "127.0.0.4"), "/ip-flux")).isEqualTo(429);
        assertThat(get(client(direct, "127.0.0.5"), "/ip-flux")).isEqualTo(200);
    }

    @Test
    void aSpoofedForwardedForDoesNotChangeTheKeyByDefault() {
        WebTestClient client = client(direct, "127.0.0.6");
        assertThat(get(client, "/ip", "X-Forwarded-For", "203.0.113.1")).isEqualTo(200);
        assertThat(get(client, "/ip", "X-Forwarded-For", "203.0.113.2")).isEqualTo(200);
        assertThat(get(client, "/ip", "X-Forwarded-For", "203.0.113.3")).isEqualTo(429);
    }

    @Test
    void theForwardedClientIsTheKeyWhenSpringIsToldToTrustForwardedHeaders() {
        WebTestClient proxy = client(forwarding, "127.0.0.7");
        assertThat(get(proxy, "/ip", "X-Forwarded-For", "198.51.100.1")).isEqualTo(200);
        assertThat(get(proxy, "/ip", "X-Forwarded-For", "198.51.100.1")).isEqualTo(200);
        assertThat(get(proxy, "/ip", "X-Forwarded-For", "198.51.100.1")).isEqualTo(429);
        assertThat(get(proxy, "/ip", "X-Forwarded-For", "198.51.100.2")).isEqualTo(200);
    }

    @Test
    void eachUserHasAQuotaAndAnonymousCallsHaveNoKey() {
        WebTestClient client = client(direct, "127.0.0.8");
        assertThat(get(client, "/user", "X-Test-User", "ann")).isEqualTo(200);
        assertThat(get(client, "/user", "X-Test-User", "ann")).isEqualTo(429);
        assertThat(get(client, "/user", "X-Test-User", "ben")).isEqualTo(200);
        assertThat(get(client, "/user")).as("guard.rate-limit.missing-key=REJECT").isEqualTo(400);
    }

    @Test
    void headersAreReadCaseInsensitively() {
        WebTestClient client = client(direct, "127.0.0.9");
        assertThat(get(client, "/api", "X-Api-Key", "k1")).isEqualTo(200);
        assertThat(get(client, "/api", "X-API-KEY", "k1")).isEqualTo(429);
        assertThat(get(client, "/api", "X-Api-Key", "k2")).isEqualTo(200);
        assertThat(get(client, "/api")).isEqualTo(400);
    }

    @Test
    void aResolverBeanKeysTheLimit() {
        WebTestClient client = client(direct, "127.0.0.10");
        assertThat(get(client, "/tenant", "X-Tenant", "acme")).isEqualTo(200);
        assertThat(get(client, "/tenant", "X-Tenant", "acme")).isEqualTo(429);
        assertThat(get(client, "/tenant", "X-Tenant", "globex")).isEqualTo(200);
        assertThat(get(client, "/tenant")).isEqualTo(400);
    }
}
