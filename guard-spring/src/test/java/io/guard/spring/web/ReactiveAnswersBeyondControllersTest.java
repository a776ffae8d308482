package io.guard.spring.web;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.AutoConfigs;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
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
 * WebFlux: Guard's answers do not depend on the refusal passing through a controller (a web filter gets them too,
 * ahead of Spring Boot's error handler), and an application's own handler for a Guard exception wins over Guard's
 * default answer while its catch-all does not.
 */
class ReactiveAnswersBeyondControllersTest {

    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                    AutoConfigs.type("JacksonAutoConfiguration"), AutoConfigs.type("CodecsAutoConfiguration"),
                    AutoConfigs.type("WebFluxAutoConfiguration"), AutoConfigs.type("HttpHandlerAutoConfiguration"),
                    AutoConfigs.type("ErrorWebFluxAutoConfiguration"), GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local",
                    "guard.circuit-breaker.defaults.minimum-number-of-calls=1",
                    "guard.circuit-breaker.defaults.sliding-window-size=1",
                    "guard.circuit-breaker.defaults.wait-duration-in-open-state=20s")
            .withBean(LoginThrottle.class)
            .withBean(LoginFilter.class)
            .withBean(LoginController.class);

    static class LoginThrottle {
        @RateLimit(name = "login-attempts", rate = 1, interval = "60s")
        public void attempt() {
        }
    }

    /** Login throttling in a web filter, the classic case. */
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
    static class LoginController {
        @GetMapping("/login")
        public String login() {
            return "welcome";
        }

        @GetMapping("/search")
        @RateLimit(name = "search", rate = 1, interval = "60s")
        public Mono<String> search() {
            return Mono.just("results");
        }

        @GetMapping("/remote")
        @CircuitBreaker(name = "remote")
        public Mono<String> remote() {
            return Mono.error(new IllegalStateException("remote down"));
        }
    }

    /** One advice with both a handler of its own for a Guard exception and a catch-all, as applications write. */
    @RestControllerAdvice
    static class OwnAnswers {
        @ExceptionHandler(RateLimitExceededException.class)
        ResponseEntity<String> slowDown(RateLimitExceededException e) {
            return ResponseEntity.status(HttpStatus.I_AM_A_TEAPOT).body("slow down: " + e.policyName());
        }

        @ExceptionHandler(Exception.class)
        ResponseEntity<String> anything(Exception e) {
            return ResponseEntity.internalServerError().body("catch-all");
        }
    }

    /** A catch-all alone, ordered ahead of Guard's default place among advice. */
    @RestControllerAdvice
    @Order(GuardReactiveExceptionHandler.ORDER - 90)
    static class CatchAllFirst {
        @ExceptionHandler(Exception.class)
        ResponseEntity<String> anything(Exception e) {
            return ResponseEntity.internalServerError().body("catch-all");
        }
    }

    private static WebTestClient client(org.springframework.context.ApplicationContext context) {
        // A first exchange on a busy machine can take longer than the 5 s default.
        return WebTestClient.bindToApplicationContext(context).configureClient()
                .responseTimeout(Duration.ofSeconds(30)).build();
    }

    @Test
    void aRefusalInAWebFilterAnswers429() {
        runner.run(context -> {
            WebTestClient client = client(context);
            Exchange first = Exchange.get(client, "/login");
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.body()).isEqualTo("welcome");
            Exchange refused = Exchange.get(client, "/login");
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.isProblem()).isTrue();
            assertThat(refused.header("Retry-After")).matches("59|60");
            assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"login-attempts\";q=1;w=60");
            assertThat(refused.header("RateLimit")).matches("\"login-attempts\";r=0;t=(59|60)");
            assertThat(refused.json().path("type").asText()).isEqualTo("urn:problem-type:guard:rate-limited");
            assertThat(refused.json().path("violated-policies").path(0).asText()).isEqualTo("login-attempts");
            assertThat(refused.json().path("instance").asText()).isEqualTo("/login");
        });
    }

    @Test
    void theApplicationsOwnHandlerForAGuardExceptionWinsAndItsCatchAllDoesNot() {
        runner.withBean(OwnAnswers.class).run(context -> {
            WebTestClient client = client(context);
            assertThat(Exchange.get(client, "/search").status()).isEqualTo(200);
            Exchange refused = Exchange.get(client, "/search");
            assertThat(refused.status()).isEqualTo(418);
            assertThat(refused.body()).isEqualTo("slow down: search");
            assertThat(Exchange.get(client, "/remote").body()).isEqualTo("catch-all");
            Exchange open = Exchange.get(client, "/remote");
            assertThat(open.status()).isEqualTo(503);
            assertThat(open.json().path("circuit-breaker").asText()).isEqualTo("remote");
        });
    }

    @Test
    void aCatchAllOrderedFirstDoesNotTurnA429IntoA500() {
        runner.withBean(CatchAllFirst.class).run(context -> {
            WebTestClient client = client(context);
            assertThat(Exchange.get(client, "/search").status()).isEqualTo(200);
            Exchange refused = Exchange.get(client, "/search");
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.isProblem()).isTrue();
        });
    }
}
