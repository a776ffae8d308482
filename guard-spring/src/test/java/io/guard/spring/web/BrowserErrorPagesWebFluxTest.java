package io.guard.spring.web;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebFlux: browsers get the application's error page for a refusal (rendered by Spring Boot's error handler, as for
 * the application's other errors) with Retry-After and the RateLimit fields; API clients keep the problem detail.
 */
class BrowserErrorPagesWebFluxTest {

    private static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                    AutoConfigs.type("JacksonAutoConfiguration"), AutoConfigs.type("CodecsAutoConfiguration"),
                    AutoConfigs.type("WebFluxAutoConfiguration"), AutoConfigs.type("HttpHandlerAutoConfiguration"),
                    AutoConfigs.type("ErrorWebFluxAutoConfiguration"), GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local",
                    // Boot's error handler finds static error pages here: error/429.html, nothing for 503.
                    "spring.web.resources.static-locations=classpath:/html-errors/",
                    "server.error.include-message=always", "spring.web.error.include-message=always",
                    "guard.circuit-breaker.instances.vets.minimum-number-of-calls=1",
                    "guard.circuit-breaker.instances.vets.sliding-window-size=1",
                    "guard.circuit-breaker.instances.vets.wait-duration-in-open-state=30s")
            .withBean(LoginThrottle.class)
            .withBean(LoginFilter.class)
            .withBean(PagesController.class)
            .withBean(CatchAll.class);

    static class LoginThrottle {
        @RateLimit(name = "login-attempts", rate = 1, interval = "60s")
        public void attempt() {
        }
    }

    /** Login throttling in a web filter: the refusal never reaches a controller. */
    static class LoginFilter implements WebFilter {
        private final LoginThrottle throttle;

        LoginFilter(LoginThrottle throttle) {
            this.throttle = throttle;
        }

        @Override
        public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
            if (exchange.getRequest().getPath().value().equals("/login")) {
                throttle.attempt();
            }
            return chain.filter(exchange);
        }
    }

    @RestController
    static class PagesController {
        @GetMapping("/login")
        public Mono<String> login() {
            return Mono.just("welcome");
        }

        @GetMapping("/owners")
        @RateLimit(name = "owner-search", rate = 1, interval = "60s")
        public Mono<String> owners() {
            return Mono.just("owners");
        }

        @GetMapping("/vets")
        @CircuitBreaker(name = "vets")
        public Mono<String> vets() {
            return Mono.error(new IllegalStateException("vets down"));
        }
    }

    /** An application's catch-all, which must not swallow a browser's refusal either. */
    @RestControllerAdvice
    static class CatchAll {
        @ExceptionHandler(Exception.class)
        ResponseEntity<String> anything(Exception e) {
            return ResponseEntity.internalServerError().body("catch-all");
        }
    }

    private static WebTestClient client(ApplicationContext context) {
        return WebTestClient.bindToApplicationContext(context).configureClient()
                .responseTimeout(Duration.ofSeconds(30)).build();
    }

    @Test
    void aBrowserGetsTheApplicationsErrorPageFor429WithRetryAfterAndTheRateLimitFields() {
        runner.run(context -> {
            WebTestClient client = client(context);
            assertThat(Exchange.get(client, "/owners", BROWSER).status()).isEqualTo(200);
            Exchange refused = Exchange.get(client, "/owners", BROWSER);
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.header("Content-Type")).startsWith("text/html");
            assertThat(refused.body()).contains("Too many requests - the application's own error page");
            assertThat(refused.header("Retry-After")).matches("59|60");
            assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"owner-search\";q=1;w=60");
            assertThat(refused.header("RateLimit")).matches("\"owner-search\";r=0;t=(59|60)");
        });
    }

    @Test
    void anApiClientStillGetsTheProblemDetail() {
        runner.run(context -> {
            WebTestClient client = client(context);
            assertThat(Exchange.get(client, "/owners", "application/json").status()).isEqualTo(200);
            Exchange refused = Exchange.get(client, "/owners", "application/json");
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.isProblem()).isTrue();
            assertThat(refused.json().path("type").asText()).isEqualTo("urn:problem-type:guard:rate-limited");
            assertThat(refused.header("Retry-After")).matches("59|60");
            assertThat(refused.header("RateLimit")).matches("\"owner-search\";r=0;t=(59|60)");
            assertThat(Exchange.get(client, "/owners", "*/*").isProblem()).isTrue();
            assertThat(Exchange.get(client, "/owners", "application/json;q=0.9, text/html;q=0.5").isProblem())
                    .isTrue();
        });
    }

    @Test
    void aRefusalInAWebFilterGetsTheErrorPageToo() {
        runner.run(context -> {
            WebTestClient client = client(context);
            assertThat(Exchange.get(client, "/login", BROWSER).body()).isEqualTo("welcome");
            Exchange refused = Exchange.get(client, "/login", BROWSER);
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.body()).contains("Too many requests - the application's own error page");
            assertThat(refused.header("Retry-After")).matches("59|60");
            assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"login-attempts\";q=1;w=60");
        });
    }

    @Test
    void anOpenBreakerWithoutFallbackGivesABrowserTheWhitelabelPageWithTheDetail() {
        runner.run(context -> {
            WebTestClient client = client(context);
            assertThat(Exchange.get(client, "/vets", BROWSER).body()).isEqualTo("catch-all");
            Exchange open = Exchange.get(client, "/vets", BROWSER);
            assertThat(open.status()).isEqualTo(503);
            assertThat(open.header("Content-Type")).startsWith("text/html");
            assertThat(open.body()).contains("Whitelabel Error Page").contains("Service Unavailable")
                    .contains("is OPEN and admits no calls");
            assertThat(open.header("Retry-After")).matches("2[0-9]|30");
        });
    }
}
