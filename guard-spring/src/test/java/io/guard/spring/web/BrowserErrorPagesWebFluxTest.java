package io.guard.spring.web;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
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
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BrowserErrorPagesContract} on WebFlux: the error page is rendered by Spring Boot's error handler, as for the
 * application's other errors, and an application's catch-all advice does not swallow a refusal.
 */
class BrowserErrorPagesWebFluxTest extends BrowserErrorPagesContract {

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

    @Override
    void withApplication(Consumer<Pages> test, String... properties) {
        runner.withPropertyValues(properties).run(context -> {
            WebTestClient client = WebTestClient.bindToApplicationContext(context).configureClient()
                    .responseTimeout(Duration.ofSeconds(30)).build();
            test.accept((path, accept) -> Exchange.get(client, path, accept));
        });
    }

    /** The method's own exception, answered by the application's catch-all. */
    @Override
    void assertFailureBeforeTheBreakerOpens(Exchange failure) {
        assertThat(failure.body()).isEqualTo("catch-all");
    }
}
