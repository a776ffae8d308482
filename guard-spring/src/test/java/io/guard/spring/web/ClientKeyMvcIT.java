package io.guard.spring.web;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.key.RateLimitKeyResolver;
import io.guard.spring.ratelimit.MissingRateLimitKeyException;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.security.Principal;
import java.util.concurrent.FutureTask;

import static io.guard.spring.web.ClientServers.client;
import static io.guard.spring.web.ClientServers.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spring MVC on a real Tomcat and a real Redis: per-IP, per-user, per-header and resolver-bean limits without a
 * request parameter in the handler. Clients connect from different loopback addresses; {@code X-Forwarded-For}
 * counts only when {@code server.forward-headers-strategy=framework} tells Spring to trust it.
 */
@RedisTest
class ClientKeyMvcIT {

    private static ConfigurableApplicationContext direct;
    private static ConfigurableApplicationContext forwarding;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"TomcatServletWebServerAutoConfiguration|ServletWebServerFactoryAutoConfiguration",
            "JacksonAutoConfiguration", "HttpMessageConvertersAutoConfiguration",
            "DispatcherServletAutoConfiguration", "WebMvcAutoConfiguration",
            "DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import({KeyedController.class, Reports.class})
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

    /** Stands in for an authentication filter (Spring Security's sets the request's principal the same way). */
    static class TestAuthentication extends OncePerRequestFilter {
        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            String user = request.getHeader("X-Test-User");
            chain.doFilter(user == null ? request : new HttpServletRequestWrapper(request) {
                @Override
                public Principal getUserPrincipal() {
                    return () -> user;
                }
            }, response);
        }
    }

    @RestController
    static class KeyedController {
        @GetMapping("/ip")
        @RateLimit(name = "per-ip", key = "#clientIp", rate = 2, interval = "60s")
        public String ip() {
            return "ok";
        }

        @GetMapping("/ip-mono")
        @RateLimit(name = "per-ip-mono", key = "#clientIp", rate = 2, interval = "60s")
        public Mono<String> ipMono() {
            return Mono.just("ok");
        }

        @GetMapping("/user")
        @RateLimit(name = "per-user", key = "#principal", rate = 1, interval = "60s")
        public String user() {
            return "ok";
        }

        @GetMapping("/api")
        @RateLimit(name = "per-api-key", key = "#headers['x-api-key']", rate = 1, interval = "60s")
        public String api() {
            return "ok";
        }

        @GetMapping("/tenant")
        @RateLimit(name = "per-tenant", keyResolver = "tenantKey", rate = 1, interval = "60s")
        public String tenant() {
            return "ok";
        }
    }

    /** A service called from a scheduled job as well as from requests. */
    static class Reports {
        @RateLimit(name = "report-per-ip", key = "#clientIp", rate = 5, interval = "60s")
        public String report() {
            return "report";
        }
    }

    @BeforeAll
    static void start(RedisEndpoint redis) {
        direct = ClientServers.start(App.class, WebApplicationType.SERVLET, redis, "direct:");
        forwarding = ClientServers.start(App.class, WebApplicationType.SERVLET, redis, "forwarding:",
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
    void aSpoofedForwardedForDoesNotChangeTheKeyByDefault() {
        WebTestClient client = client(direct, "127.0.0.4");
        assertThat(get(client, "/ip", "X-Forwarded-For", "203.0.113.1")).isEqualTo(200);
        assertThat(get(client, "/ip", "X-Forwarded-For", "203.0.113.2")).isEqualTo(200);
        assertThat(get(client, "/ip", "X-Forwarded-For", "203.0.113.3")).isEqualTo(429);
    }

    @Test
    void theForwardedClientIsTheKeyWhenSpringIsToldToTrustForwardedHeaders() {
        WebTestClient proxy = client(forwarding, "127.0.0.5");
        assertThat(get(proxy, "/ip", "X-Forwarded-For", "198.51.100.1")).isEqualTo(200);
        assertThat(get(proxy, "/ip", "X-Forwarded-For", "198.51.100.1")).isEqualTo(200);
        assertThat(get(proxy, "/ip", "X-Forwarded-For", "198.51.100.1")).isEqualTo(429);
        assertThat(get(proxy, "/ip", "X-Forwarded-For", "198.51.100.2")).isEqualTo(200);
    }

    @Test
    void monoHandlersReadTheRequestOfTheCallingThread() {
        WebTestClient client = client(direct, "127.0.0.6");
        assertThat(get(client, "/ip-mono")).isEqualTo(200);
        assertThat(get(client, "/ip-mono")).isEqualTo(200);
        assertThat(get(client, "/ip-mono")).isEqualTo(429);
        assertThat(get(client(direct, "127.0.0.7"), "/ip-mono")).isEqualTo(200);
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
    void aResolverBeanKeysTheLimitAndABlankKeyIsNoKey() {
        WebTestClient client = client(direct, "127.0.0.10");
        assertThat(get(client, "/tenant", "X-Tenant", "acme")).isEqualTo(200);
        assertThat(get(client, "/tenant", "X-Tenant", "acme")).isEqualTo(429);
        assertThat(get(client, "/tenant", "X-Tenant", "globex")).isEqualTo(200);
        assertThat(get(client, "/tenant", "X-Tenant", "")).as("a blank key").isEqualTo(400);
        assertThat(get(client, "/tenant")).as("no key").isEqualTo(400);
    }

    /**
     * On a thread of its own, like a scheduled job's: the test runner's thread may still carry a request that a
     * MockMvc test of another class bound to it.
     */
    @Test
    void outsideARequestTheVariablesAreNullAndTheMissingKeyPolicyApplies() throws Exception {
        FutureTask<String> job = new FutureTask<>(() -> direct.getBean(Reports.class).report());
        Thread scheduler = new Thread(job, "scheduled-report");
        scheduler.start();
        assertThatThrownBy(job::get).cause()
                .isInstanceOf(MissingRateLimitKeyException.class)
                .hasMessage("Rate limit 'report-per-ip' needs a key, but '#clientIp' is null for this call");
        scheduler.join();
    }
}
