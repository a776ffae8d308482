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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
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
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.security.Principal;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.FutureTask;

import static io.guard.spring.web.ClientServers.client;
import static io.guard.spring.web.ClientServers.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Per-IP, per-user, per-header and resolver-bean limits without a request parameter in the handler, on a real
 * server (Tomcat for Spring MVC, Netty for WebFlux) and a real Redis; each shared case runs on both servers.
 * Clients connect from different loopback addresses; {@code X-Forwarded-For} counts only when
 * {@code server.forward-headers-strategy=framework} tells Spring to trust it. On WebFlux the exchange is not bound
 * to a thread, so the keys of Mono and Flux handlers are evaluated per subscription with the exchange Guard's
 * filter puts into the Reactor context.
 */
@RedisTest
class ClientKeyIT {

    /** The two web stacks; everything else about the application is the same. */
    enum Server {
        MVC(MvcApp.class, WebApplicationType.SERVLET), WEBFLUX(WebFluxApp.class, WebApplicationType.REACTIVE);

        final Class<?> app;
        final WebApplicationType type;

        Server(Class<?> app, WebApplicationType type) {
            this.app = app;
            this.type = type;
        }
    }

    private static final Map<Server, ConfigurableApplicationContext> DIRECT = new EnumMap<>(Server.class);
    private static final Map<Server, ConfigurableApplicationContext> FORWARDING = new EnumMap<>(Server.class);

    /** The resolver bean and the stand-in authentication both applications have. */
    abstract static class Keys {
        @Bean
        RateLimitKeyResolver tenantKey() {
            return call -> call.header("X-Tenant");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"TomcatServletWebServerAutoConfiguration|ServletWebServerFactoryAutoConfiguration",
            "JacksonAutoConfiguration", "HttpMessageConvertersAutoConfiguration",
            "DispatcherServletAutoConfiguration", "WebMvcAutoConfiguration",
            "DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import({MvcController.class, Reports.class})
    static class MvcApp extends Keys {
        @Bean
        ServletAuthentication testAuthentication() {
            return new ServletAuthentication();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"NettyReactiveWebServerAutoConfiguration|ReactiveWebServerFactoryAutoConfiguration",
            "JacksonAutoConfiguration", "CodecsAutoConfiguration", "WebFluxAutoConfiguration",
            "HttpHandlerAutoConfiguration", "DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(WebFluxController.class)
    static class WebFluxApp extends Keys {
        @Bean
        ReactiveAuthentication testAuthentication() {
            return new ReactiveAuthentication();
        }
    }

    /** Stands in for an authentication filter (Spring Security's sets the request's principal the same way). */
    static class ServletAuthentication extends OncePerRequestFilter {
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

    /** Stands in for an authentication filter (Spring Security's, at order -100, sets the principal the same way). */
    static class ReactiveAuthentication implements WebFilter, Ordered {
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
    static class MvcController {
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

    @RestController
    static class WebFluxController {
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

    /** A service called from a scheduled job as well as from requests. */
    static class Reports {
        @RateLimit(name = "report-per-ip", key = "#clientIp", rate = 5, interval = "60s")
        public String report() {
            return "report";
        }
    }

    @BeforeAll
    static void start(RedisEndpoint redis) {
        for (Server server : Server.values()) {
            String prefix = server.name().toLowerCase() + ":";
            DIRECT.put(server, ClientServers.start(server.app, server.type, redis, prefix + "direct:"));
            FORWARDING.put(server, ClientServers.start(server.app, server.type, redis, prefix + "forwarding:",
                    "server.forward-headers-strategy=framework"));
        }
    }

    @AfterAll
    static void stop() {
        DIRECT.values().forEach(ConfigurableApplicationContext::close);
        FORWARDING.values().forEach(ConfigurableApplicationContext::close);
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void twoClientAddressesGetSeparateQuotas(Server server) {
        WebTestClient first = client(DIRECT.get(server), "127.0.0.2");
        assertThat(get(first, "/ip")).isEqualTo(200);
        assertThat(get(first, "/ip")).isEqualTo(200);
        assertThat(get(first, "/ip")).isEqualTo(429);
        assertThat(get(client(DIRECT.get(server), "127.0.0.3"), "/ip")).isEqualTo(200);
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void aSpoofedForwardedForDoesNotChangeTheKeyByDefault(Server server) {
        WebTestClient client = client(DIRECT.get(server), "127.0.0.4");
        assertThat(get(client, "/ip", "X-Forwarded-For", "203.0.113.1")).isEqualTo(200);
        assertThat(get(client, "/ip", "X-Forwarded-For", "203.0.113.2")).isEqualTo(200);
        assertThat(get(client, "/ip", "X-Forwarded-For", "203.0.113.3")).isEqualTo(429);
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void theForwardedClientIsTheKeyWhenSpringIsToldToTrustForwardedHeaders(Server server) {
        WebTestClient proxy = client(FORWARDING.get(server), "127.0.0.5");
        assertThat(get(proxy, "/ip", "X-Forwarded-For", "198.51.100.1")).isEqualTo(200);
        assertThat(get(proxy, "/ip", "X-Forwarded-For", "198.51.100.1")).isEqualTo(200);
        assertThat(get(proxy, "/ip", "X-Forwarded-For", "198.51.100.1")).isEqualTo(429);
        assertThat(get(proxy, "/ip", "X-Forwarded-For", "198.51.100.2")).isEqualTo(200);
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void eachUserHasAQuotaAndAnonymousCallsHaveNoKey(Server server) {
        WebTestClient client = client(DIRECT.get(server), "127.0.0.8");
        assertThat(get(client, "/user", "X-Test-User", "ann")).isEqualTo(200);
        assertThat(get(client, "/user", "X-Test-User", "ann")).isEqualTo(429);
        assertThat(get(client, "/user", "X-Test-User", "ben")).isEqualTo(200);
        assertThat(get(client, "/user")).as("guard.rate-limit.missing-key=REJECT").isEqualTo(400);
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void headersAreReadCaseInsensitively(Server server) {
        WebTestClient client = client(DIRECT.get(server), "127.0.0.9");
        assertThat(get(client, "/api", "X-Api-Key", "k1")).isEqualTo(200);
        assertThat(get(client, "/api", "X-API-KEY", "k1")).isEqualTo(429);
        assertThat(get(client, "/api", "X-Api-Key", "k2")).isEqualTo(200);
        assertThat(get(client, "/api")).isEqualTo(400);
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void aResolverBeanKeysTheLimitAndABlankKeyIsNoKey(Server server) {
        WebTestClient client = client(DIRECT.get(server), "127.0.0.10");
        assertThat(get(client, "/tenant", "X-Tenant", "acme")).isEqualTo(200);
        assertThat(get(client, "/tenant", "X-Tenant", "acme")).isEqualTo(429);
        assertThat(get(client, "/tenant", "X-Tenant", "globex")).isEqualTo(200);
        assertThat(get(client, "/tenant", "X-Tenant", "")).as("a blank key").isEqualTo(400);
        assertThat(get(client, "/tenant")).as("no key").isEqualTo(400);
    }

    /** Spring MVC only: a Mono handler on a servlet server runs on the request's thread. */
    @Test
    void monoHandlersReadTheRequestOfTheCallingThread() {
        WebTestClient client = client(DIRECT.get(Server.MVC), "127.0.0.6");
        assertThat(get(client, "/ip-mono")).isEqualTo(200);
        assertThat(get(client, "/ip-mono")).isEqualTo(200);
        assertThat(get(client, "/ip-mono")).isEqualTo(429);
        assertThat(get(client(DIRECT.get(Server.MVC), "127.0.0.7"), "/ip-mono")).isEqualTo(200);
    }

    /** WebFlux only: a Flux handler's key is evaluated per subscription like a Mono's. */
    @Test
    void fluxHandlersAreKeyedToo() {
        assertThat(get(client(DIRECT.get(Server.WEBFLUX), "127.0.0.4"), "/ip-flux")).isEqualTo(200);
        assertThat(get(client(DIRECT.get(Server.WEBFLUX), "127.0.0.4"), "/ip-flux")).isEqualTo(429);
        assertThat(get(client(DIRECT.get(Server.WEBFLUX), "127.0.0.5"), "/ip-flux")).isEqualTo(200);
    }

    /**
     * On a thread of its own, like a scheduled job's: the test runner's thread may still carry a request that a
     * MockMvc test of another class bound to it.
     */
    @Test
    void outsideARequestTheVariablesAreNullAndTheMissingKeyPolicyApplies() throws Exception {
        FutureTask<String> job = new FutureTask<>(() -> DIRECT.get(Server.MVC).getBean(Reports.class).report());
        Thread scheduler = new Thread(job, "scheduled-report");
        scheduler.start();
        assertThatThrownBy(job::get).cause()
                .isInstanceOf(MissingRateLimitKeyException.class)
                .hasMessage("Rate limit 'report-per-ip' needs a key, but '#clientIp' is null for this call");
        scheduler.join();
    }
}
